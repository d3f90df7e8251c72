"""An agent that remembers its user across conversations, on the async SDK.

Each turn the agent recalls what it knows, puts it in front of the "model", answers, and logs the turn to a
thread; MemoryLayer extracts facts from the thread in the background (``wait_for_job``). A rule-based stand-in
replaces the LLM so this runs offline; swap ``think`` for a real model call.

    MEMORYLAYER_URL=http://127.0.0.1:61001 .venv/bin/python examples/agent.py
"""

from __future__ import annotations

import asyncio
import os
import uuid

from memorylayer import MemoryLayerClient


def think(user_message: str, memories: list[str]) -> str:
    """The model's place. This one just says what it remembers that bears on the question."""
    if not memories:
        return "I don't know anything about that yet. Tell me!"
    return "From what I remember: " + "; ".join(memories[:3]) + "."


class Agent:
    def __init__(self, client: MemoryLayerClient, user_id: str) -> None:
        self.client, self.user_id = client, user_id
        self.thread_id: str | None = None

    async def start_conversation(self) -> None:
        self.thread_id = (await self.client.create_thread(user_id=self.user_id, title="chat")).id

    async def turn(self, user_message: str) -> str:
        assert self.thread_id, "start_conversation first"
        # Semantic memories are the extracted facts; the raw turns are stored too, as episodic ones.
        found = await self.client.recall(
            user_message, user_id=self.user_id, types=["semantic"], min_relevance=0, limit=5
        )
        memories = [m.content for m in found.memories]
        reply = think(user_message, memories)
        added = await self.client.append_messages(
            self.thread_id,
            [{"role": "user", "content": user_message}, {"role": "assistant", "content": reply}],
        )
        if added.job_id:
            # Only so the next turn of this demo sees the new facts at once; an agent need not wait.
            await self.client.wait_for_job(added.job_id, timeout=60)
        return reply


async def main() -> None:
    workspace = os.environ.get("MEMORYLAYER_WORKSPACE_ID") or f"ws_agent_{uuid.uuid4().hex[:8]}"
    async with MemoryLayerClient(workspace_id=workspace) as client:
        agent = Agent(client, user_id="dana")

        await agent.start_conversation()
        print("agent:", await agent.turn("Where do I live?"))
        print("agent:", await agent.turn("My name is Dana and I live in Paris."))

        # A new conversation, days later: the facts came from the first one.
        await agent.start_conversation()
        reply = await agent.turn("Where do I live?")
        print("agent (new conversation):", reply)
        assert "User lives in Paris" in reply


if __name__ == "__main__":
    asyncio.run(main())
