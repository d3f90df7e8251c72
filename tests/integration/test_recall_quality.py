"""Retrieval-quality regressions of the ranking levers kept from the LoCoMo experiments (bench/locomo):
BM25's rarity weighting, neighbouring turns of a stream, the speaker named in the query, and the time cue of
a "when" question. Runs on the real stack with the deterministic ``hash`` embedder; asserts ranks only."""

from __future__ import annotations


def remember(http, ws: str, content: str, **fields) -> str:
    r = http.post("/v1/memories", json={"content": content, **fields}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 201, r.text
    return r.json()["memory"]["id"]


def ranked(http, ws: str, query: str, **fields) -> list[dict]:
    r = http.post(
        "/v1/memories/recall", json={"query": query, "limit": 10, **fields}, headers={"X-Workspace-ID": ws}
    )
    assert r.status_code == 200, r.text
    return r.json()["memories"]


def ids(memories: list[dict]) -> list[str]:
    return [m["id"] for m in memories]


def test_a_rare_word_outweighs_a_word_every_memory_has(http, ws):
    # "jon" is in every memory, "banker" in one: BM25's IDF ranks the banker memory first although another
    # memory says "jon" twice and is as long.
    for i in range(8):
        remember(http, ws, f"Jon talked about the weather and his plans number {i}")
    remember(http, ws, "Jon told Jon about the weather and his plans again")
    banker = remember(http, ws, "Lost my job as a banker yesterday and the weather was grey")
    assert ids(ranked(http, ws, "Jon banker"))[0] == banker


def test_the_reply_after_a_matching_question_is_recalled(http, ws):
    # The question's words are in Jon's turn; the answer is Gina's reply right after it in the same session.
    session = [
        ("Gina", "Hey Jon, good to see you again, how was the weekend?"),
        ("Jon", "Great weekend! Love the tattoo on your arm, did you just get it?"),
        ("Gina", "Thanks! Got it a few years ago, it stands for freedom and following my passions."),
        ("Jon", "That is a powerful reminder, I like it a lot."),
    ]
    turn_ids = [
        remember(http, ws, f"{speaker}: {text}", sequence_key="session_5", metadata={"speaker": speaker})
        for speaker, text in session
    ]
    for i in range(6):
        remember(
            http,
            ws,
            f"Gina: the new arm of my store opened number {i}, can't wait to show you",
            metadata={"speaker": "Gina"},
        )
    top = ranked(http, ws, "When did Gina get her tattoo?")
    order = ids(top)
    assert order.index(turn_ids[2]) < 3, [m["content"] for m in top]
    reply = top[order.index(turn_ids[2])]
    assert "context" in reply["match_signals"]
    # Without the stream the same reply has nothing to borrow from and falls behind.
    other = f"{ws}_flat"
    flat = [remember(http, other, f"{s}: {t}", metadata={"speaker": s}) for s, t in session]
    for i in range(6):
        remember(
            http,
            other,
            f"Gina: the new arm of my store opened number {i}, can't wait to show you",
            metadata={"speaker": "Gina"},
        )
    flat_order = ids(ranked(http, other, "When did Gina get her tattoo?"))
    assert flat[2] not in flat_order[: order.index(turn_ids[2]) + 1]


def test_the_speaker_named_in_the_query_comes_first(http, ws):
    # Same words, different speakers (metadata.speaker): only the speaker match separates them.
    jon = remember(http, ws, "I love contemporary dance, it is so expressive", metadata={"speaker": "Jon"})
    gina = remember(http, ws, "I love contemporary dance, it is so expressive", metadata={"speaker": "Gina"})
    assert ids(ranked(http, ws, "Which dance does Gina love?"))[:2] == [gina, jon]
    assert ids(ranked(http, ws, "Which dance does Jon love?"))[:2] == [jon, gina]
    # A name inside another word is not a match.
    top = ranked(http, ws, "Which dance does Ginawski love?")
    assert {m["id"] for m in top[:2]} == {jon, gina}
    assert top[0]["relevance_score"] == top[1]["relevance_score"]


def test_a_when_question_prefers_the_memory_that_says_when(http, ws):
    dated = remember(http, ws, "Jon opened his dance studio last week with a big party")
    undated = remember(http, ws, "Jon opened his dance studio with a big crowd party")
    assert ids(ranked(http, ws, "When did Jon open his dance studio?"))[:2] == [dated, undated]
    # Not a "when" question: no time cue, the closer wording wins.
    assert ids(ranked(http, ws, "Jon opened his dance studio with a big crowd"))[0] == undated
