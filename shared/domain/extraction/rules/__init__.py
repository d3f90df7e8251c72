"""The deterministic extractor's fact rules: what people say about themselves, read with regexes and word lists.

    >>> [(f.predicate, f.value) for f in facts_in("I'm allergic to peanuts. I work as a data engineer")]
    [('allergy', 'peanuts'), ('job_title', 'data engineer')]
    >>> [facts_in(s) for s in ("Do you like jazz?", "If I lived in Spain I'd learn Spanish", "My friend lives in Rome")]
    [[], [], []]

Precision over recall. A sentence that is a question, a condition, a hedge or a wish states nothing; a negated
statement states nothing unless a rule reads the negation ("I don't eat meat anymore" is ``avoids: meat``). Only
first-person statements (I, we, my) become facts about the user; "my sister lives in Rome" says the user has a
sister, not where the user lives. Predicates and coverage: docs/extraction.md.

Where a predicate's rules live (every rule yields ``"<predicate>", value, offset``, so
``grep -n '"lives_in"' shared/domain/extraction/rules/*.py`` finds each one). The "I'm …" frame (``copula``) reads
many predicates from one frame; the rest are in the module of their family:

=====================================================================  =========================
predicate                                                              module
=====================================================================  =========================
name                                                                   names
likes, dislikes                                                        likes (and copula)
diet, avoids                                                           diet (and copula)
hobby                                                                  hobby (and likes)
allergy, health_condition, medication                                  health (and copula)
job_title, employer, former_employer, school, studies                  work (and copula)
family, pet, partner                                                   family (and copula, dates)
lives_in, hometown, lived_in, visited                                  places (and copula)
age, birthday, marital_status; dated news ("it was my … yesterday")    dates (and copula)
event                                                                  events (and dates)
plan                                                                   plans
=====================================================================  =========================

Around them: ``facts`` (the order the rules run in, and ``facts_in``), ``sentences`` (what states nothing),
``normalise`` (a sentence put in the words the rules know), ``words`` (the word lists), ``times`` (time
expressions), ``phrases`` (regex pieces several families share), ``values`` and ``matching`` (what a rule keeps,
and a negated match).
"""

from shared.domain.extraction.rules.facts import Fact, facts_in
from shared.domain.extraction.rules.health import condition
from shared.domain.extraction.rules.normalise import normalise
from shared.domain.extraction.rules.sentences import states_nothing
from shared.domain.extraction.rules.work import job_title

__all__ = ["Fact", "condition", "facts_in", "job_title", "normalise", "states_nothing"]
