"""Deterministic extraction generalises: the patterns added after holdout3's blind run, each as
the general frame it is (a verb frame, a word class, a grammatical shape), not the sentence that showed the gap.
Every statement below gave a different answer before its rule; the negatives guard the precision the broader
patterns put at risk. Labelled sets: tests/fixtures/extraction/, measured by ``python -m bench.extraction``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.extraction.score import FIXTURE, evaluate, load
from shared.domain.extraction.deterministic import DeterministicExtractor

EXTRACTOR = DeterministicExtractor()


def facts(text: str) -> set[tuple[str, str]]:
    return {(c.predicate or "", c.value or "") for c in EXTRACTOR.facts(text)}


STATEMENTS = [
    # health
    ("I've got hay fever so spring is rough", {("health_condition", "hay fever")}),
    ("I have a heart condition", {("health_condition", "heart condition")}),
    ("I was diagnosed with endometriosis", {("health_condition", "endometriosis")}),
    ("I use an inhaler for my asthma", {("medication", "inhaler"), ("health_condition", "asthma")}),
    ("I'm taking sertraline for anxiety", {("medication", "sertraline"), ("health_condition", "anxiety")}),
    ("I'm deaf in one ear", {("health_condition", "deaf in one ear")}),
    ("I'm on levothyroxine", {("medication", "levothyroxine")}),
    ("My doctor put me on statins", {("medication", "statins")}),
    ("I'm recovering from a knee injury", {("health_condition", "knee injury")}),
    # preferences
    ("I'm lactose-free and I don't eat pork", {("diet", "lactose-free"), ("avoids", "pork")}),
    ("I've gone vegan", {("diet", "vegan")}),
    ("I've been a vegetarian for ten years", {("diet", "vegetarian")}),
    ("I don't really like talking on the phone", {("dislikes", "talking on the phone")}),
    ("I've always loved jazz", {("likes", "jazz")}),
    ("Mushrooms are my least favourite thing to eat", {("dislikes", "Mushrooms")}),
    ("Jazz is my thing", {("likes", "Jazz")}),
    ("I avoid gluten", {("avoids", "gluten")}),
    ("I'm not keen on spicy food", {("dislikes", "spicy food")}),
    # work
    ("I'm between jobs right now", {("job_title", "unemployed")}),
    ("I retired in 2020", {("job_title", "retired"), ("event", "retired in 2020")}),
    ("I'm studying computer science at Stanford", {("studies", "computer science"), ("school", "Stanford")}),
    ("I've just been hired as a data analyst at Monzo", {("job_title", "data analyst"), ("employer", "Monzo")}),
    ("I'm head chef at a restaurant in Soho", {("job_title", "head chef")}),
    # family
    ("I'm a single mum", {("marital_status", "single"), ("family", "children")}),
    ("We have two cats and a parrot", {("pet", "2 cats"), ("pet", "parrot")}),
    ("I'm expecting my first baby in May", {("plan", "expecting my first baby in May")}),
    ("I'm happily married", {("marital_status", "married")}),
    ("I've been married for twenty years", {("marital_status", "married")}),
    # places
    ("I'm a Londoner", {("lives_in", "London")}),
    ("I live in a small village near York", {("lives_in", "York")}),
    ("I moved back to Glasgow in March", {("lives_in", "Glasgow"), ("event", "moved back to Glasgow in March")}),
    ("i grew up in texas but live in oregon now", {("hometown", "texas"), ("lives_in", "oregon")}),
    ("We relocated from Boston to Austin last year",
     {("lived_in", "Boston"), ("lives_in", "Austin"), ("event", "relocated from Boston to Austin last year")}),
    ("My hometown is Cork", {("hometown", "Cork")}),
    ("I spent my childhood in Lagos", {("hometown", "Lagos")}),
    ("I've been to Japan, Korea and Vietnam", {("visited", "Japan"), ("visited", "Korea"), ("visited", "Vietnam")}),
    # events and plans
    ("A few years ago I moved to Spain", {("lives_in", "Spain"), ("event", "moved to Spain a few years ago")}),
    ("I broke my arm over Christmas", {("event", "broke my arm over Christmas")}),
    ("We're going on honeymoon to Bali in August", {("plan", "going on honeymoon to Bali in August")}),
    ("I've decided to learn Japanese", {("plan", "learn Japanese")}),
    ("I'm off to Spain next week", {("plan", "go to Spain next week")}),
    # new phrasing from a probe list (not committed)
    ("Chocolate is my weakness", {("likes", "Chocolate")}),
    ("Gardening is my favourite hobby", {("hobby", "Gardening")}),
    ("I've never been a fan of seafood", {("dislikes", "seafood")}),
    ("I've been living with MS for ten years", {("health_condition", "MS")}),
    ("I struggle with anxiety", {("health_condition", "anxiety")}),
    ("I have an underactive thyroid", {("health_condition", "underactive thyroid")}),
    ("I work from home for Shopify", {("employer", "Shopify")}),
    ("I'm a grandmother of four", {("family", "4 grandchildren")}),
    ("I'm separated from my husband", {("marital_status", "separated"), ("family", "husband")}),
    ("I live in Brooklyn with my two cats", {("lives_in", "Brooklyn"), ("pet", "2 cats")}),
    ("Originally from Kerala, now in Dubai", {("hometown", "Kerala")}),
    ("Last summer we went to Greece", {("visited", "Greece"), ("event", "went to Greece last summer")}),
    ("I've booked a trip to Morocco for April", {("plan", "trip to Morocco for April")}),
    ("Going to Japan in the autumn!", {("plan", "Japan in the autumn")}),
    ("I'm a huge Arsenal fan", {("likes", "Arsenal")}),
    ("My nan is 95", {("family", "grandmother")}),
    ("Live in Cardiff, work in Bristol", {("lives_in", "Cardiff")}),
    ("Our house is in a village outside Oxford", {("lives_in", "Oxford")}),
    ("When I was 20 I lived in Spain", {("lived_in", "Spain")}),  # a when-clause, not a question
    ("I'm planning a trip to Vietnam", {("plan", "trip to Vietnam")}),
    ("I've got an interview at Apple on Thursday", {("plan", "interview at Apple on Thursday")}),
    ("I’m taking sertraline for anxiety", {("medication", "sertraline"), ("health_condition", "anxiety")}),  # ’
    # a fifth probe: chattier, lower-case, several facts a message
    ("Big into photography lately", {("likes", "photography")}),
    ("i've got asthma and a nut allergy", {("health_condition", "asthma"), ("allergy", "nut")}),
    ("Been struggling with insomnia for months", {("health_condition", "insomnia")}),
    ("I'm recovering from covid", {("health_condition", "covid")}),
    ("I'm seven months pregnant", {("health_condition", "pregnant")}),
    ("I'm based out of Denver", {("lives_in", "Denver")}),
    ("I was born and raised in Lagos", {("hometown", "Lagos")}),
    ("I got married in 2015 and had my first kid in 2017",
     {("marital_status", "married"), ("event", "got married in 2015"), ("event", "had my first kid in 2017"),
      ("family", "kid")}),
    ("Just got back from Japan yesterday", {("event", "got back from Japan yesterday")}),
    ("gonna start running next week", {("plan", "start running next week")}),
    ("I'm about to start a new job at Meta", {("plan", "start a new job at Meta")}),
    ("we moved to the countryside last year", {("event", "moved to the countryside last year")}),  # not a place
    # the second verb's subject and time are the first's only when no one else is named
    ("My sister got married in 2015 and had a kid in 2017", {("family", "sister")}),
    ("I moved to Denver in 2020 and started working at Intel",
     {("lives_in", "Denver"), ("employer", "Intel"), ("event", "moved to Denver in 2020")}),
    # after holdout4's blind run (a second annotator): values as a person would write them
    ("We have three goldfish", {("pet", "3 goldfish")}),  # an invariant plural
    ("I have two puppies", {("pet", "2 puppies")}),
    ("I love fish and chips and jazz", {("likes", "fish and chips"), ("likes", "jazz")}),  # a fixed pair is one
    ("I really like black and white photography", {("likes", "black and white photography")}),
    ("I'm a physician associate", {("job_title", "physician associate")}),  # the head is the last job word
    ("I'm a security guard at Tesco", {("job_title", "security guard"), ("employer", "Tesco")}),
    ("my birthday's the 5th of may lol", {("birthday", "5th of may")}),  # no article, no filler
    ("I work for a tiny agency called Brightside", {("employer", "Brightside")}),
    # work: tenure, shifts, a particle before "at", the subject left out, "of" inside a name
    ("Been with Siemens for 3 years, mostly as an engineer", {("employer", "Siemens"), ("job_title", "engineer")}),
    ("I've been at Monzo since 2021", {("employer", "Monzo")}),
    ("I work weekends as a lifeguard", {("job_title", "lifeguard")}),
    ("I'm a junior designer over at Figma", {("job_title", "junior designer"), ("employer", "Figma")}),
    ("Quit Tesco in March", {("former_employer", "Tesco"), ("event", "Quit Tesco in March")}),
    ("I work at the Bank of England", {("employer", "Bank of England")}),
    ("I'm applying for a PhD in physics", set()),  # not studying it yet
    # health: misspelt triggers, "an allergy to X", "my X allergy", "for it", a medicine by its form
    ("im alergic to cats", {("allergy", "cats")}),
    ("I've got a slight allergy to pollen", {("allergy", "pollen")}),
    ("my peanut alergy", {("allergy", "peanut")}),
    ("I got diagnosed with epilepsy and I take Keppra for it", {("health_condition", "epilepsy"), ("medication", "Keppra")}),
    ("I take vitamin b12 injections", {("medication", "vitamin b12 injections")}),
    # preferences: no apostrophe, the subject left out, "the only thing I …", a pastime by its cue, "so am I"
    ("cant stand country music", {("dislikes", "country music")}),
    ("i dont like olives", {("dislikes", "olives")}),
    ("The one thing I really can't stand is loud chewing", {("dislikes", "loud chewing")}),
    ("What I love most is hiking", {("likes", "hiking")}),
    ("In my spare time I mostly do pottery and archery", {("hobby", "pottery"), ("hobby", "archery")}),
    ("Been playing chess for years, it's my favourite way to unwind", {("hobby", "chess")}),
    ("My brother is a huge Liverpool fan and so am I", {("family", "brother"), ("likes", "Liverpool")}),
    # family: "'s called", a name given after a time, a couple the user is one of
    ("My husband's called Dev", {("partner", "Dev")}),
    ("We adopted a puppy last week, he is called Rex", {("pet", "puppy Rex"), ("event", "adopted a puppy last week")}),
    ("I have a sister, her name is Eve", {("family", "sister Eve")}),
    ("We've been married for 30 years", {("marital_status", "married")}),
    ("me and my wife Ana have been married ten years", {("marital_status", "married"), ("partner", "Ana")}),
    # places: the subject left out after a comma, renting a home, a decade of life, coming back
    ("i work in york, moved down from glasgow for the job", {("lived_in", "glasgow")}),
    ("I rent a tiny studio in Lisbon", {("lives_in", "Lisbon")}),
    ("I spent my thirties in Dubai and then moved back to Perth",
     {("lived_in", "Dubai"), ("lives_in", "Perth")}),
    ("Flew to Iceland in March", {("visited", "Iceland"), ("event", "Flew to Iceland in March")}),
    # events and plans: "it was my …" with a time, a booked occasion and its time, an ordinal day, a time in
    # "my plan for …", a statement before a trailing question
    ("Today is my 30th birthday", {("age", "30")}),
    ("It was my first day at the new job yesterday", {("event", "my first day at the new job yesterday")}),
    ("My surgery is on Friday", {("plan", "surgery on Friday")}),
    ("I have a dentist appointment on the 3rd", {("plan", "dentist appointment on the 3rd")}),
    ("My goal for this year is to run a marathon", {("plan", "run a marathon this year")}),
    ("I'm moving to Leeds next month, any tips?", {("plan", "moving to Leeds next month")}),
    ("I live in Paris, how about you?", {("lives_in", "Paris")}),
    # after probe 6
    ("My husband adores cricket and so do I", {("family", "husband"), ("likes", "cricket")}),
    ("I've had an alergy to wasps all my life", {("allergy", "wasps")}),
    ("I'm a support engineer for Shopify", {("job_title", "support engineer"), ("employer", "Shopify")}),
    ("last night was my first gig", {("event", "my first gig last night")}),
    ("Our anniversary is next week", {("plan", "anniversary next week")}),
    ("My interview is tomorrow, wish me luck", {("plan", "interview tomorrow")}),
    ("dont really enjoy crowds", {("dislikes", "crowds")}),
    ("After work I usually go climbing", {("hobby", "climbing")}),
    # after probe 7
    ("In my free time I do lots of baking", {("hobby", "baking")}),
    ("Stopped vaping in January", {("avoids", "vaping"), ("event", "Stopped vaping in January")}),
    ("Relocated to Oslo last spring", {("lives_in", "Oslo"), ("event", "Relocated to Oslo last spring")}),
    ("My allergy to cats is getting worse", {("allergy", "cats")}),
    ("The one thing I don't enjoy is cooking", {("dislikes", "cooking")}),
    ("I've been renting a room in Leeds for two years", {("lives_in", "Leeds")}),  # a duration, not a let
]  # fmt: skip
NEGATIVES = [
    "I'm a Gooner",
    "I'm debt-free",
    "I work in cancer research",
    "I have a lot of pain",
    "I avoid driving at night",
    "I'm going to bed",
    "I've been engaged twice",
    "I take the bus for work",
    "I'm on a deadline",
    "I used to have asthma as a child",
    "I'd hate to live somewhere that cold",
    "Loving the weather this week",  # a subject-less gerund with "this week" is no plan
    "Working on it this week",
    "Running late today",
    "I'm going to grab a coffee",
    "When is your birthday",  # a question without its question mark
    "When were you born",
    "my doctor thinks I have IBS",  # someone else's guess
    "I've been at the airport since 6am",  # a place for hours is no employer
    "I have a severe allergy",  # to what, unsaid
    "oh great, I just LOVE doing my taxes",  # sarcasm: an interjection with a shouted love
    "oh yeah I love queueing in the rain, best part of my day",
    "what I hate is when people are late",
    "It's my 40th birthday next week",  # still 39
    "Should I move to Paris, what do you think?",  # a question before the question
    "I live on the 3rd floor",  # an ordinal that is no day
    "yeah right, like I enjoy queueing",  # sarcasm
    "We rent a cottage in Devon every summer",  # a holiday let, not a home
    "It was my turn to drive last night",  # no occasion
    "I do the dishes in my spare time",  # a chore, not a pastime (a determiner)
]  # fmt: skip
OTHERS = [
    ("My parents grew up in Texas and live in Oregon", {("family", "parents")}),
    ("My sister's disease is rare", {("family", "sister")}),
    ("I decided to quit my job last week", {("event", "decided to quit my job last week")}),
    ("my son's peanut allergy is scary", {("family", "son")}),  # his, not the user's
    ("I just love hiking, best part of my week", {("likes", "hiking")}),  # no interjection: not sarcasm
    ("my parents have been married 40 years", {("family", "parents")}),  # a couple without the user
    ("my sister lives in leeds, moved from london", {("family", "sister")}),  # hers
    ("My brother spent his twenties in Berlin before coming back to Sydney", {("family", "brother")}),
    ("my sister's wedding is next june", {("family", "sister")}),  # her occasion
    ("My birthday is next month", {("plan", "birthday next month")}),  # when it comes, not its date
    ("I have a dog and my neighbour has a cat, her name is Luna", {("pet", "dog")}),  # the name is the cat's
    ("Left London in 2019 for a job", {("event", "Left London in 2019")}),  # one leaves a city
]


@pytest.mark.parametrize(("text", "expected"), STATEMENTS + OTHERS)
def test_statements(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize("text", NEGATIVES)
def test_nothing_about_the_user(text):
    assert facts(text) == set()


def test_a_condition_is_a_named_one_a_medical_head_noun_or_a_medical_ending():
    from shared.domain.extraction.rules import condition

    assert condition("hay fever so spring is rough") == "hay fever"
    assert condition("tendonitis in my knee") == "tendonitis"
    assert condition("hypothyroidism") == "hypothyroidism"
    # Not a condition: a possessive or kin word, a function word, a word that only looks medical.
    assert condition("sister's disease") is None
    assert condition("lot of pain") is None
    assert condition("diploma in design") is None


@pytest.mark.parametrize(
    "name",
    [
        "utterances.json",
        "holdout.json",
        "holdout2.json",
        "holdout3.json",
        "holdout5_dev.json",
        "probes_dev.json",
        "holdout4.json",
        "holdout6.json",
        "holdout7.json",
    ],
)
def test_every_labelled_set_meets_the_targets(name):
    # Given a labelled set (in-sample now: each was tuned on after its blind first run, docs/extraction.md)
    results = evaluate(load(Path(FIXTURE).with_name(name)), lambda text: sorted(facts(text)))["overall"]
    # Then precision and recall stay above the targets (0.9 and 0.7) on every one of them.
    assert results.precision >= 0.9, results.extras
    assert results.recall >= 0.7, results.misses


# Plans, said in the ways people say what is coming (the gaps holdout6 showed, docs/extraction.md). Each statement
# is in other words than the set's and gave a different answer before its frame; the negatives beside them are
# what each frame might over-read.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a talk verb ("ask", "go", "see") with someone or somewhere as its object and a future time
        ("I'm going to tell my landlord about the leak tomorrow", {("plan", "tell my landlord about the leak tomorrow")}),
        ("We've decided to go back to Crete next summer", {("plan", "go back to Crete next summer")}),
        # "in the new year" is a future time
        ("We're redoing the kitchen in the new year", {("plan", "redoing the kitchen in the new year")}),
        # "taking someone somewhere" with a future time
        ("I'm taking my dad to the Lakes on Sunday", {("plan", "taking my dad to the Lakes on Sunday"), ("family", "father")}),
        # "booked in for X" with its time
        ("I'm booked in for a colonoscopy on the 9th", {("plan", "colonoscopy on the 9th")}),
        # the present of a timetable with a future time
        ("Next month I begin a pottery course at the community centre",
         {("plan", "begin a pottery course at the community centre next month")}),
        ("We fly to Lisbon on Thursday", {("plan", "fly to Lisbon on Thursday")}),
        # a couple or group the user is one of, and "the wife" said beside "me"
        ("Me and the husband are off to Crete in June", {("family", "husband"), ("plan", "go to Crete in June")}),
        ("The kids and I are heading to Cornwall next week", {("family", "kids"), ("plan", "heading to Cornwall next week")}),
        # saving to do something, the subject left out after "but"
        ("Skint at the moment but saving to buy a van", {("plan", "buy a van")}),
        # a trailing emoji is not part of the value
        ("I'm off to Rome next week 🍕", {("plan", "go to Rome next week")}),
    ],
)  # fmt: skip
def test_plans(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm going to ask you a couple of questions tomorrow",  # talk: the object is "you"
        "I'll see how it goes tomorrow",
        "I'm going to do my best tomorrow",  # "do" stays a talk verb: an idiom, not a plan
        "I'm taking the bins out tomorrow morning",  # "taking" with no one taken anywhere
        "I usually fly back at Christmas",  # a habit, not a timetable
        "I start most days with a coffee",  # no future time
        "Tomorrow my sister flies to Rome",  # someone else's timetable
        "The house on the corner is going on the market in the new year",
        "I'm fully booked on Friday",
        "The wife of my friend is off to Paris on Friday",
    ],
)  # fmt: skip
def test_plan_negatives(text):
    assert {p for p, _ in facts(text)} <= {"family"} and not any(p == "plan" for p, _ in facts(text))


# Values neither cut short nor run on (holdout6's four blind false positives, in other words).
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm allergic to dust mites OR pollen, not sure which", {("allergy", "dust mites"), ("allergy", "pollen")}),
        ("I'm on an insulin pen now", {("medication", "insulin pen")}),
        ("I study law at St John's College Oxford", {("studies", "law"), ("school", "St John's College Oxford")}),
        ("My husband's name is Jean-Luc", {("partner", "Jean-Luc")}),
    ],
)  # fmt: skip
def test_values_whole(text, expected):
    assert facts(text) == expected


# Places: each frame in other words than holdout6's, with what it might over-read.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We've lived in the Algarve since 2016", {("lives_in", "Algarve")}),
        ("Currently renting in Leith", {("lives_in", "Leith")}),
        ("We moved to Porto from Bristol last year",
         {("lives_in", "Porto"), ("lived_in", "Bristol"), ("event", "moved to Porto from Bristol last year")}),
        ("based in cardiff, originally from swansea tho", {("lives_in", "cardiff"), ("hometown", "swansea")}),
        ("Just got back from three weeks in Peru", {("visited", "Peru")}),
        ("I was born in Accra in 1988", {("hometown", "Accra"), ("birthday", "1988")}),
        # someone else's
        ("my sister lives in Leeds, originally from York", {("family", "sister")}),
        ("Got back from work at six", set()),
    ],
)  # fmt: skip
def test_places(text, expected):
    assert facts(text) == expected


# Work and family frames, with what each might over-read.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an "-ist" is a job where one works at a named place
        ("I'm a podiatrist at St Mary's Hospital", {("job_title", "podiatrist"), ("employer", "St Mary's Hospital")}),
        ("I'm an optimist at the best of times", set()),
        # "with" a name of two or more words is the employer
        ("I'm a support worker with Citizens Advice", {("job_title", "support worker"), ("employer", "Citizens Advice")}),
        ("I'm a teacher with ADHD", {("job_title", "teacher")}),
        # children counted as boys or girls, an age before a kin word
        ("Our three girls keep us busy", {("family", "3 girls")}),
        ("I have a 6 year old nephew, Sam", {("family", "nephew Sam")}),
    ],
)  # fmt: skip
def test_work_and_family(text, expected):
    assert facts(text) == expected


# Health, diet and time frames, with what each might over-read.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Just got diagnosed with sciatica", {("health_condition", "sciatica")}),
        ("I'm 49 and going through perimenopause", {("age", "49"), ("health_condition", "perimenopause")}),
        ("My mum is 60, going through menopause", {("family", "mother")}),
        ("I started statins in the spring", {("medication", "statins"), ("event", "started statins in the spring")}),
        ("Been pescatarian for around five years", {("diet", "pescatarian")}),
        ("Been busy at work", set()),
        ("I'm taking amoxicillin this week for my chest", {("medication", "amoxicillin")}),
        # "last" before a month is a past time
        ("I ran my first marathon last April", {("event", "ran my first marathon last April")}),
    ],
)  # fmt: skip
def test_health_diet_and_times(text, expected):
    assert facts(text) == expected


# Pastimes: a frequency is a leisure cue, what is made is the hobby, a second pastime keeps no verb.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I go bouldering most evenings", {("hobby", "bouldering")}),
        ("I knit jumpers in my free time and do a bit of pottery", {("hobby", "jumpers"), ("hobby", "pottery")}),
        ("I make dinner every evening", set()),  # a meal is a chore
        ("I go to work every morning", set()),
    ],
)  # fmt: skip
def test_pastimes(text, expected):
    assert facts(text) == expected


# "… are both X": what is said of a couple or group the user is one of is said of the user.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My husband and I are both teachers", {("job_title", "teacher"), ("family", "husband")}),
        ("We're both massive Liverpool fans", {("likes", "Liverpool")}),
        ("My parents are both doctors", {("family", "parents")}),  # the user is not one of them
        ("We are both tired", set()),
    ],
)  # fmt: skip
def test_both_of_a_group(text, expected):
    assert facts(text) == expected


# Constructions rather than sentences (the gaps holdout7 showed, docs/extraction.md): ``normalise`` (emoji,
# fillers, casual spellings, "the only X who") and hedges scoped to their own clause reach every rule at once; the
# rest are frames and word classes. Each statement is in other words than holdout7's and gave a different answer
# on the rules of 5100a37.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("reckon I'm the only Scot who doesn't like whisky", [('dislikes', 'whisky')]),
        ('ok so been vegan 🌱 for about a year', [('diet', 'vegan')]),
        ("I'm a 29 yo paramedic", [('age', '29'), ('job_title', 'paramedic')]),
        ('ive got eczema on my hands', [('health_condition', 'eczema')]),
        ('I live in Galway but my partner might move us to Cork', [('lives_in', 'Galway')]),
        ('Priya (my wife) thinks I should retire', [('partner', 'Priya')]),
        ('allergic to kiwi fruit, so no fruit salads please', [('allergy', 'kiwi fruit')]),
        ('Married to my college sweetheart, Daniel, for 20 years now', [('marital_status', 'married'), ('partner', 'Daniel')]),
        ("I'm 52, divorced, two grown-up sons and a rescue greyhound", [('age', '52'), ('family', '2 sons'), ('marital_status', 'divorced'), ('pet', 'greyhound')]),
        ('Biscuit, my cockapoo, ate my sandwich', [('pet', 'cockapoo Biscuit')]),
        ('all three of my sisters live abroad', [('family', '3 sisters')]),
        ('My stepsons are both at uni', [('family', 'stepsons')]),
        ('Sourdough baking and trail running are my two big passions', [('likes', 'Sourdough baking'), ('likes', 'trail running')]),
        ('Old Westerns make me so happy', [('likes', 'Old Westerns')]),
        ('I love to bake', [('likes', 'bake')]),
        ('We swapped Manchester for Valencia last spring', [('event', 'swapped Manchester for Valencia last spring'), ('lived_in', 'Manchester'), ('lives_in', 'Valencia')]),
        ('Cork born, Dublin based', [('hometown', 'Cork'), ('lives_in', 'Dublin')]),
        ('Singapore was home for six years', [('lived_in', 'Singapore')]),
        ('I stay in Pune with my wife', [('family', 'wife'), ('lives_in', 'Pune')]),
        ('We moved out of Boston in 2020', [('event', 'moved out of Boston in 2020'), ('lived_in', 'Boston')]),
        ('Grew up on a sheep farm near Dunedin', [('hometown', 'Dunedin')]),
        ("I've travelled a fair bit - Peru, Chile and Cuba", [('visited', 'Chile'), ('visited', 'Cuba'), ('visited', 'Peru')]),
        ('Second year of my nursing degree at Keele', [('school', 'Keele'), ('studies', 'nursing')]),
        ("I'm ex-Deloitte", [('former_employer', 'Deloitte')]),
        ("I'm a GP in Bristol", [('job_title', 'GP'), ('lives_in', 'Bristol')]),
        ("I've been on lansoprazole for months due to acid reflux", [('health_condition', 'acid reflux'), ('medication', 'lansoprazole')]),
        ('I have rheumatoid arthritis', [('health_condition', 'rheumatoid arthritis')]),
        ('40 today and feeling it', [('age', '40')]),
        ("I'm doing the London Marathon in April", [('plan', 'doing the London Marathon in April')]),
        ('Engaged to Sam, and the wedding is in June', [('marital_status', 'engaged'), ('partner', 'Sam'), ('plan', 'wedding in June')]),
    ],
)  # fmt: skip
def test_constructions(text, expected):
    assert facts(text) == set(expected)


# …and what each of those might over-read: idioms and talk as plans, someone else's facts, a condition after a
# comma, a state word that starts a sentence about others, a place that is home to others.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm going to lose it", []),
        ("I'll eat anything", []),
        ('I told you that last week', []),
        ('London is home to the Tate', []),
        ('We work with a Leeds-based charity', []),
        ('Two of my friends are vegan', []),
        ('Yesterday, my dog ate a sock', [('pet', 'dog')]),
        ('My sister says I should move to Leeds', [('family', 'sister')]),
        ("I'm a 5 year old at heart", []),
        ('My brother got engaged, and the wedding is next summer', [('family', 'brother')]),
        ("I'm the only one who cares", []),
        ("I'll move to Berlin, but only if the pay is right", []),
        ('Married people always say that', []),
        ('my friend stays in Bangalore', []),
        ('My son is doing a history degree at York', [('family', 'son')]),
        ('I stay in a hotel when I visit Rome', []),
        ("Hurt my back in March so I'm working from home", [('event', 'Hurt my back in March')]),
        ("I'm moving to Lyon next month but maybe not", []),
        ("I'm moving to Lyon next month but I might not", []),  # the user's own hedge takes the clause back
    ],
)  # fmt: skip
def test_construction_negatives(text, expected):
    assert facts(text) == set(expected)
