"""The deterministic extractor's fact rules: what people say about themselves, read with regexes and word lists.

    >>> [(f.predicate, f.value) for f in facts_in("I'm allergic to peanuts. I work as a data engineer")]
    [('allergy', 'peanuts'), ('job_title', 'data engineer')]
    >>> facts_in("Do you like jazz?"), facts_in("If I lived in Spain I'd learn Spanish"), facts_in("My friend lives in Rome")
    ([], [], [])

Precision over recall. A sentence that is a question, a condition, a hedge or a wish states nothing; a negated
statement states nothing unless a rule reads the negation ("I don't eat meat anymore" is ``avoids: meat``). Only
first-person statements (I, we, my) become facts about the user; "my sister lives in Rome" says the user has a
sister, not where the user lives. Predicates and coverage: docs/extraction.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

# ------------------------------------------------------------------------------------------- word lists
_MONTH = ("january|february|march|april|may|june|july|august|september|october|november|december|"
          "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec")  # fmt: skip
_DAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_SEASON = "spring|summer|autumn|fall|winter"
_HOLIDAY = (r"christmas|xmas|easter|thanksgiving|halloween|new\s+year'?s?(?:\s+eve|\s+day)?|diwali|hanukkah|eid|"
            r"ramadan|passover|the\s+holidays|spring\s+break|half[-\s]term")  # fmt: skip
_UNIT = rf"week|month|year|weekend|night|morning|afternoon|evening|{_DAY}|{_SEASON}|{_HOLIDAY}"
# How many: "two", "a few", "a couple of", "several", "18".
_HOW_MANY = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
             r"a\s+few|a\s+couple\s+of|couple\s+of|a\s+couple|few|several|many|\d+)")  # fmt: skip
_DATE = (rf"(?:in\s+(?:early\s+|late\s+|mid-?)?(?:{_MONTH})(?:\s+\d{{4}})?|in\s+(?:the\s+)?(?:{_SEASON})(?:\s+of\s+\d{{4}})?|in\s+\d{{4}}|"
         rf"on\s+(?:{_DAY})|on\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MONTH})(?:\s+\d{{4}})?|"
         rf"on\s+(?:{_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|on\s+the\s+\d{{1,2}}(?:st|nd|rd|th)(?!\s+(?:floor|time|day|try|attempt|place|row|grade|year|century|anniversary|birthday|of\s+(?!{_MONTH})))|(?:at|over|on|for)\s+(?:{_HOLIDAY}))")  # fmt: skip
_PAST_TIME = re.compile(
    rf"\b(?:yesterday|last\s+(?:{_UNIT}|{_MONTH})|{_HOW_MANY}\s+(?:days?|weeks?|months?|years?|decades?)\s+ago|"
    rf"earlier\s+(?:this\s+(?:week|month|year)|today)|this\s+(?:morning|afternoon)|this\s+past\s+(?:{_UNIT})|"
    rf"over\s+the\s+weekend|the\s+other\s+(?:day|week|night)|back\s+in\s+(?:\d{{4}}|the\s+\d0s)|in\s+the\s+(?:19|20)?\d0'?s|{_DATE})\b", re.I)  # fmt: skip
_FUTURE_TIME = re.compile(
    rf"\b(?:tomorrow|tonight|later\s+today|next\s+(?:{_UNIT}|{_MONTH})|this\s+(?:coming\s+)?(?:{_UNIT})|later\s+this\s+(?:week|month|year)|"
    rf"in\s+{_HOW_MANY}\s+(?:days?|weeks?|months?|years?)|(?:before|by)\s+(?:the\s+end\s+of\s+)?(?:{_MONTH}|{_DAY}|{_SEASON}|{_HOLIDAY}|next\s+\w+|the\s+weekend)|"
    rf"(?:at|by)\s+the\s+end\s+of\s+(?:the|this|next)\s+(?:week|month|year)|for\s+(?:{_MONTH}|{_SEASON}|the\s+weekend)|in\s+the\s+new\s+year|{_DATE})\b", re.I)  # fmt: skip

NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
_NUM = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"

JOB_HEADS = frozenset(["engineer", "developer", "programmer", "designer", "architect", "manager", "director", "nurse", "doctor", "physician", "surgeon", "dentist", "vet", "veterinarian", "teacher", "professor", "lecturer", "tutor", "student", "researcher", "scientist", "analyst", "consultant", "accountant", "lawyer", "attorney", "solicitor", "paralegal", "paramedic", "firefighter", "policeman", "policewoman", "pilot", "chef", "cook", "baker", "barista", "waiter", "waitress", "bartender", "cashier", "driver", "mechanic", "electrician", "plumber", "carpenter", "builder", "farmer", "writer", "journalist", "editor", "author", "artist", "painter", "musician", "photographer", "actor", "actress", "producer", "librarian", "pharmacist", "therapist", "counselor", "counsellor", "worker", "clerk", "secretary", "assistant", "receptionist", "administrator", "technician", "chemist", "physicist", "economist", "statistician", "mathematician", "translator", "interpreter", "salesman", "saleswoman", "salesperson", "recruiter", "marketer", "entrepreneur", "founder", "ceo", "cto", "cfo", "coo", "intern", "lead", "coordinator", "specialist", "officer", "soldier", "sailor", "cleaner", "nanny", "caregiver", "carer", "midwife", "optometrist", "surveyor", "welder", "machinist", "tailor", "hairdresser", "stylist", "trainer", "coach", "instructor", "broker", "banker", "trader", "auditor", "freelancer", "contractor", "dev", "sre", "postdoc", "principal", "owner", "executive", "supervisor", "planner", "strategist", "practitioner", "guard", "representative", "rep", "agent", "operator", "attendant", "inspector", "associate", "handler", "dispatcher", "courier", "porter", "janitor", "caretaker", "housekeeper", "steward", "stewardess", "labourer", "laborer", "hygienist", "sonographer", "radiographer", "physio",
                       # the fifth pass: jobs said by their initials ("a primary school TA", "an RN")
                       "ta", "rn", "gp", "lpn", "cna", "emt", "hca", "pa", "ot", "slp", "senco"])  # fmt: skip
_JOB_SUFFIX = re.compile(r"(?:ologist|ician|ographer)$")
# Not working, said as a state: "I'm retired", "I'm between jobs", "I'm out of work".
_JOB_STATES = {"retired": "retired", "unemployed": "unemployed", "self-employed": "self-employed",
               "semi-retired": "semi-retired", "between jobs": "unemployed", "out of work": "unemployed",
               "jobless": "unemployed", "out of a job": "unemployed"}  # fmt: skip
DIETS = frozenset({"vegetarian", "vegan", "pescatarian", "pescetarian", "gluten-free", "dairy-free", "keto",
                   "kosher", "halal", "paleo", "teetotal", "flexitarian", "plant-based", "low-carb"})  # fmt: skip
# "I'm lactose-free", "I'm nut-free": a diet is "<food>-free"; "I'm debt-free" is not one.
_FREE_FROM = re.compile(r"(?:lactose|dairy|gluten|wheat|sugar|nut|peanut|egg|meat|soy|grain|caffeine|alcohol|"
                        r"fodmap|carb|yeast|corn|fish|shellfish|sesame)-free", re.I)  # fmt: skip
# Adjectives people use for a condition, and the condition they name.
CONDITION_ADJECTIVES = {"lactose intolerant": "lactose intolerance", "gluten intolerant": "gluten intolerance",
                        "diabetic": "diabetes", "asthmatic": "asthma", "epileptic": "epilepsy",
                        "pregnant": "pregnant", "anemic": "anemia", "anaemic": "anaemia", "autistic": "autism",
                        "colorblind": "colour blindness", "colourblind": "colour blindness",
                        "colour blind": "colour blindness", "color blind": "colour blindness",
                        "dyslexic": "dyslexia", "bipolar": "bipolar disorder", "anorexic": "anorexia",
                        "celiac": "celiac disease", "coeliac": "coeliac disease", "prediabetic": "prediabetes",
                        "pre-diabetic": "prediabetes", "insulin resistant": "insulin resistance",
                        "immunocompromised": "immunocompromised", "hypoglycemic": "hypoglycemia",
                        "deaf": "deaf", "blind": "blind", "hard of hearing": "hard of hearing",
                        "partially sighted": "partially sighted", "disabled": "disabled",
                        "paraplegic": "paraplegia", "quadriplegic": "quadriplegia"}  # fmt: skip
# A condition is a named one, a noun phrase with a medical head ("hay fever", "a heart condition", "back pain") or
# a word with a medical ending (tendonitis, endometriosis, fibromyalgia, neuropathy, hypothyroidism, melanoma).
CONDITIONS = re.compile(
    r"(?:(?:rheumatoid|psoriatic|juvenile|post-?natal|post-?partum|clinical|seasonal|atopic|exercise-induced|"
    r"generali[sz]ed|social)\s+(?=(?:arthritis|depression|anxiety|eczema|asthma|migraines?)\b))?"
    r"(?:(?:type\s+[12]\s+)?diabetes|asthma|migraines?|celiac\s+disease|coeliac\s+disease|adhd|anxiety|depression|"
    r"arthritis|eczema|epilepsy|hypertension|high\s+blood\s+pressure|low\s+blood\s+pressure|high\s+cholesterol|ibs|"
    r"ibd|crohn'?s(?:\s+disease)?|insomnia|psoriasis|sleep\s+apnea|sleep\s+apnoea|long\s+covid|dyslexia|dyspraxia|"
    r"autism|tinnitus|ptsd|ocd|pcos|copd|gerd|acid\s+reflux|lupus|gout|menopause|perimenopause|sciatica|vertigo|dementia|schizophrenia|"
    r"bipolar(?:\s+disorder)?|cancer|acne|rosacea|glaucoma|cataracts|shingles|anorexia|bulimia|hiv|covid(?:-19)?|"
    r"(?:[\w'-]+\s+){1,2}(?:disease|syndrome|disorder|cancer|fever|deficiency|intolerance|condition|infection|"
    r"pain|injury)|"
    r"(?!diploma\b|aroma\b)[a-z]{3,}(?:itis|osis|a?emia|pathy|algia|oma|plegia|philia|trophy|phobia)|"
    r"hyp(?:o|er)[a-z]+ism|(?:under|over)active\s+(?:thyroid|bladder))\b", re.I)  # fmt: skip
MARITAL = frozenset({"married", "single", "divorced", "engaged", "widowed", "separated"})
RELATIVES = frozenset(["mother", "mom", "mum", "father", "dad", "parents", "twins", "sister", "brother", "sisters", "brothers", "sibling", "siblings", "son", "sons", "daughter", "daughters", "kid", "kids", "child", "children", "baby", "grandmother", "grandma", "grandfather", "grandpa", "grandparents", "grandson", "granddaughter", "grandkids", "grandchildren", "aunt", "uncle", "cousin", "cousins", "niece", "nephew", "twin", "nan", "nana", "nanna", "gran", "granny", "grandad", "granddad", "stepmother", "stepfather", "stepson", "stepdaughter", "in-laws", "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "son-in-law", "daughter-in-law", "stepbrother", "stepsister", "half-brother", "half-sister", "stepkids", "stepchildren", "grandchild", "granddaughters", "grandsons", "toddler", "newborn", "nieces", "nephews", "aunts", "uncles"])  # fmt: skip
# The fifth pass: every kin word's plural ("my stepdaughters", "my grandsons"), by rule rather than one at a time.
RELATIVES = RELATIVES | {w + "s" for w in RELATIVES if not w.endswith(("s", "y", "d")) and "-" not in w} | {
    "babies", "granddads", "grandads"}  # fmt: skip
PARTNERS = frozenset({"wife", "husband", "partner", "girlfriend", "boyfriend", "fiance", "fiancé", "fiancee",
                      "fiancée", "spouse"})  # fmt: skip
_KIN = "|".join(sorted(RELATIVES | PARTNERS, key=len, reverse=True))  # longest first: "in-laws" before "in"
_CANONICAL = {
    "mom": "mother",
    "mum": "mother",
    "dad": "father",
    "grandma": "grandmother",
    "grandpa": "grandfather",
    "nan": "grandmother",
    "nana": "grandmother",
    "nanna": "grandmother",
    "gran": "grandmother",
    "granny": "grandmother",
    "grandad": "grandfather",
    "granddad": "grandfather",
}
# The fifth pass: breeds and kinds said instead of "dog" or "cat" ("a lurcher", "our cockapoo", "a bearded dragon"),
# multi-word ones first, and any "-doodle" cross (not "lab": "I have a lab meeting"; not any "-poo": shampoo).
PETS = ("springer spaniel|cocker spaniel|king charles spaniel|jack russell|german shepherd|great dane|french bulldog|"
        "bearded dragon|corn snake|maine coon|shih tzu|"
        "lurcher|whippet|cockapoo|cavapoo|maltipoo|yorkipoo|[a-z]{3,}doodle|pug|chihuahua|bulldog|frenchie|"
        "dalmatian|rottweiler|doberman|schnauzer|pomeranian|staffie|staffy|alsatian|westie|sheepdog|labrador|"
        "axolotl|tarantula|hedgehog|chinchilla|gerbil|cockatiel|canary|parakeet|macaw|iguana|alpaca|donkey|"
        "dog|cat|puppy|pony|kitten|hamster|rabbit|bunny|parrot|budgie|goldfish|fish|turtle|tortoise|guinea pig|horse|"
        "snake|lizard|gecko|ferret|border collie|collie|labrador|golden retriever|retriever|poodle|beagle|dachshund|"
        "corgi|husky|terrier|spaniel|greyhound")  # fmt: skip
# Words that turn a sentence into a question, a condition, a hedge or a wish: it states nothing about the user.
HEDGES = frozenset({"if", "unless", "whether", "suppose", "supposing", "imagine", "pretend", "hypothetically",
                    "would", "could", "should", "might", "maybe", "perhaps", "someday", "wish", "i'd", "thinking",
                    "considering", "wonder", "wondering", "thinks", "suspects", "reckons"})  # fmt: skip
_QUESTION_START = frozenset({"who", "what", "what's", "where", "which", "when", "why", "how", "do", "does", "did",
                             "can", "could", "should", "would", "will", "is", "are", "am", "was", "were", "shall",
                             "may", "tell", "remind", "give", "show", "help", "let's"})  # fmt: skip
# "I'm going to ask you something" is talk about the conversation, not a plan.
_TALK = frozenset({"ask", "tell", "say", "need", "explain", "share", "paste", "send", "give", "show", "check",
                   "describe", "try", "list", "write", "copy", "answer", "know", "understand", "see", "clarify",
                   "repeat", "rephrase", "mention", "add", "use", "the", "a", "an", "my", "your", "you", "be",
                   "have", "go", "keep", "start", "continue", "do", "think", "consider", "wait", "figure", "reply",
                   "respond", "grab", "pop", "nip", "hop", "bed", "sleep", "work", "school", "class", "lunch", "dinner", "breakfast", "church", "ignore", "let", "leave", "skip", "drop", "stick", "pass", "forget", "remember", "decide"})  # fmt: skip
_FILLER = re.compile(r"\s+(?:these\s+days|nowadays|now|at\s+the\s+moment|right\s+now|lately|originally|too|"
                     r"as\s+well|though|tho|myself|personally|currently|anymore|any\s+more|honestly|actually|tbh|lol|lmao|haha+|imo|btw|fyi|ngl|all\s+my\s+life|my\s+whole\s+life|"
                     r"here)$", re.I)  # fmt: skip
# Where a clause ends: a value never runs past one of these.
_CLAUSE_END = re.compile(r"\s*(?:[,.;:!?()]|\s-\s|\b(?:but|because|since|so|though|although|while|whereas|"
                         r"especially|which|who|when|unless|except|and\s+(?:I|we|i)\b|I'm|I\s+am)\b|$)")  # fmt: skip
_LIST = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*)\s*", re.I)  # "X AND Y" too
_PREPOSITION = re.compile(
    r"\s+(?:on|in|at|for|with|over|than|from|instead\s+of|rather\s+than|to|during|every|each|twice|once|after|before|until|"
    r"as\s+(?:a|an|my)\b)\b.*$",
    re.I,
)
_NAME = r"(?-i:([A-Z][a-zà-ÿ']+(?:-[A-Za-zà-ÿ']+)*(?:\s+[A-Z][a-zà-ÿ']+(?:-[A-Za-zà-ÿ']+)*)?))"  # "Mei-Ling" whole
_NOT_SUBJECTS = frozenset(
    {"at", "in", "for", "the", "a", "kids", "children", "people", "students", "online", "part"}
)
_CALLED = r"(?:an?\s+(?:[\w-]+\s+){1,3}(?:called|named)\s+)?"  # "at a startup called Kite", "a little bistro called Lune"
_A_NAME = r"(?-i:[A-Z][a-zà-ÿ'-]+)"  # the same, captured by no group (inside a lookahead)
_HAVE = r"(?:\s+have\s+got|\s+have|'ve\s+got|’ve\s+got|'ve|’ve|\s+got)"  # "I have", "I've got", …
_PROPER = r"(?:the\s+)?(?-i:([A-Z][\w&.'-]*(?:(?:\s+|,\s*|\s+of\s+(?:the\s+)?)[A-Z][\w&.'-]*){0,3}))"
_PLACE_LOWER = r"([a-z][a-z.'-]+(?:\s+[a-z][a-z.'-]+){0,2})"  # only in a message typed all in lower case
_NOT_PLACES = frozenset({"hope", "fear", "denial", "peace", "sin", "harmony", "luxury", "poverty", "style",
                         "a", "an", "the", "my", "our", "this", "that", "here", "there", "town", "the city",
                         "it", "comfort", "squalor", "countryside", "the countryside", "suburbs", "the suburbs",
                         "coast", "the coast", "seaside", "the seaside", "country", "the country", "abroad",
                         "city", "the sticks", "the mountains", "the middle of nowhere"})  # fmt: skip


@dataclass(frozen=True)
class Fact:
    predicate: str
    value: str
    start: int  # offset of the statement in the text, for ordering


# ----------------------------------------------------------------------------------------------- helpers
def _clause(text: str) -> str:
    """``text`` up to where its clause ends."""
    end = _CLAUSE_END.search(text)
    return text[: end.start()] if end else text


def _unfill(value: str) -> str:
    """``value`` without trailing fillers ("keto these days" -> "keto")."""
    value = value.strip(" \t'\"")
    while True:
        shorter = _FILLER.sub("", value)
        if shorter == value:
            return value
        value = shorter


def _clean(value: str) -> str:
    value = _unfill(value)
    return re.sub(r"^(?:a|an|some|really|very|also|just|both|either)\s+", "", value, flags=re.I).strip()


_ACTIVITY = re.compile(
    r"[a-z]{3,}ing\s+(?:on|in|at|to|with|about|for)\s+(?!(?:the\s+)?(?:morning|mornings|evening|evenings|night|"
    r"weekends?|week|summer|winter|spring|autumn|holidays?|\w+days?|\d)\b)(?:the\s+|a\s+)?[a-z]+", re.I)  # fmt: skip


# Fixed pairs that are one thing, not two: "old black and white films", "fish and chips".
_BINOMIAL = re.compile(
    r"\b(?:black\s+and\s+white|salt\s+and\s+(?:vinegar|pepper)|fish\s+(?:and|n|'n')\s+chips|rock\s+(?:and|n|'n')\s+roll|"
    r"drum\s+(?:and|n|'n')\s+bass|mac\s+(?:and|n|'n')\s+cheese|sweet\s+and\s+sour|peanut\s+butter\s+and\s+jelly|"
    r"arts\s+and\s+crafts|dungeons\s+(?:and|&)\s+dragons|rhythm\s+and\s+blues|r\s*(?:and|&|n)\s*b|cheese\s+and\s+onion|"
    r"bangers\s+and\s+mash|pie\s+and\s+mash|surf\s+and\s+turf|hide\s+and\s+seek|bed\s+and\s+breakfast|"
    r"fast\s+and\s+furious|sci-fi\s+and\s+fantasy|hot\s+and\s+sour|bubble\s+and\s+squeak)\b", re.I)  # fmt: skip


def _items(text: str, *, cut_prepositions: bool = True) -> list[str]:
    """A list of things ("hiking and photography", "shellfish, penicillin"), each cleaned."""
    out = []
    text = _clause(text)
    if re.search(r"\s(?:and|n|'n'|&)\s", text):  # cheap test first: most lists have no fixed pair
        text = _BINOMIAL.sub(lambda m: m.group(0).replace(" ", "\x01"), text)
    for item in _LIST.split(text):
        item = item.replace("\x01", " ")
        # "talking on the phone" is one activity; "running before work" and "baking bread on Sundays" are a thing
        # and when.
        if cut_prepositions and not _ACTIVITY.fullmatch(item.strip()):
            item = _PREPOSITION.sub("", item)
        item = _clean(item)
        if (
            item
            and not re.match(r"(?:is|are|was|were)\b", item, re.I)
            and item.lower()
            not in (
                "it",
                "that",
                "this",
                "them",
                "anything",
                "nothing",
                "everything",
                "stuff",
            )
        ):
            out.append(item)
    return out


def _negated(sentence: str, start: int) -> bool:
    """A negation among the three words before ``start``, in its clause ("I don't like tea, I prefer coffee")."""
    clause = re.split(r"[,;:]", sentence[:start])[-1]
    before = re.findall(r"[\w']+", clause.lower())[-3:]
    return any(w in ("not", "never", "no", "longer") or w.endswith("n't") for w in before)


# The trigger words, with their common misspellings ("alergic", "alergy", "allergys").
_ALLERGIC = r"(?:allergic|alergic|allergick|alergick|allegic|allergc)"
_ALLERGY = r"(?:allerg(?:y|ies|ys)|alerg(?:y|ies|ys)|allergey|alergey)"
_ALLERGY_ADJ = r"(?:(?:severe|mild|slight|bad|serious|terrible|life-threatening|minor)\s+)?"
_NOT_CONDITION_WORDS = frozenset({"a", "an", "the", "my", "your", "his", "her", "our", "their", "of", "some", "any",
                                   "no", "lot", "bit", "much", "this", "that", "and", "or", "in", "with", "for",
                                   "to", "little", "real", "same", "what", "which", "i", "it", "is"})  # fmt: skip


def condition(text: str) -> str | None:
    """The condition ``text`` starts with, lower case: "hay fever so spring is rough" -> "hay fever"; None if none.

    >>> condition("hay fever so spring is rough"), condition("tendonitis in my knee"), condition("lot of pain")
    ('hay fever', 'tendonitis', None)
    """
    match = CONDITIONS.match(text)
    if not match:
        return None
    words = [w.lower().removesuffix("'s") for w in match.group(0).split()]
    if any(w in _NOT_CONDITION_WORDS or w in RELATIVES or w in PARTNERS for w in words):
        return None
    return re.sub(r"\s+", " ", match.group(0).lower())


def _my_condition(text: str) -> str | None:
    """A condition at the start of ``text`` that is not the first word of something else ("cancer research")."""
    found = condition(text)
    if found and not re.match(r"\s+(?:research|charity|lab|awareness|ward|unit|clinic|foundation|centre|center|"
                              r"society|project|class|course|paper|essay|talk|doctor|nurse|specialist)\b",
                              text[len(found) :], re.I):  # fmt: skip
        return found
    return None


def job_title(words: str) -> str | None:
    """The job in a phrase: "software engineer at Stripe" -> "software engineer"; None if there is none.

    >>> job_title("senior data engineer at Acme"), job_title("huge fan of jazz"), job_title("bit tired today")
    ('senior data engineer', None, None)
    """
    tokens = _clause(words).split()
    head = None
    for i, token in enumerate(tokens):
        word = token.lower().strip(",.")
        if word in ("at", "in", "for", "with", "and", "of", "from", "on", "studying", "who", "working", "by"):
            break
        # "-ist" is a job only where one works: "a phlebotomist at the Royal Infirmary" (not "a realist at heart")
        works_at = re.fullmatch(r"[a-z]{5,}ist", word) and re.match(
            r"(?:at|for|with)\s+(?:the\s+)?(?-i:[A-Z])", " ".join(tokens[i + 1 : i + 4])
        )
        if word in JOB_HEADS or (_JOB_SUFFIX.search(word) and len(word) > 6) or works_at:
            head = i
    if head is None or head > 3:
        return None
    return " ".join(tokens[: head + 1]).strip(",.")


# Words before "degree" that say which degree, not what in ("my final year degree", "an online degree").
_NOT_FIELDS = frozenset({"final", "first", "second", "third", "undergraduate", "postgraduate", "undergrad", "new",
                         "online", "part-time", "full-time", "university", "uni", "college", "whole", "current", "old",
                         "two-year", "three-year", "four-year", "honours", "joint", "masters", "master's", "bachelor's",
                         "bachelors", "another", "second-class", "first-class", "good", "useless", "expensive"})  # fmt: skip
_INVARIANT = frozenset({"fish", "goldfish", "sheep", "deer", "koi", "shrimp", "bison", "moose"})


_SINGULAR = {"puppies": "puppy", "bunnies": "bunny", "ponies": "pony"}


def _plural(noun: str) -> str:
    """ "goldfish" -> "goldfish", "puppy" -> "puppies", "guinea pig" -> "guinea pigs", "fox" -> "foxes"."""
    last = noun.split()[-1]
    if last in _INVARIANT:
        return noun
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z)$", noun):
        return noun + "es"
    return noun + "s"


def _family(word: str, count: str | None = None, name: str | None = None) -> tuple[str, str]:
    word = word.lower()
    if name and word in PARTNERS:
        return "partner", name
    word = _CANONICAL.get(word, word)
    n = NUMBERS.get(count.lower()) if count and not count.isdigit() else int(count) if count else 1
    value = f"{n} {word}" if n and n > 1 else word
    return "family", f"{value} {name}" if name else value


# ------------------------------------------------------------------------------------------------- rules
Emit = Iterator[tuple[str, str, int]]  # predicate, value, offset in the sentence
Rule = Callable[[str], Emit]
RULES: list[Rule] = []


def rule(fn: Rule) -> Rule:
    RULES.append(fn)
    return fn


def _each(pattern: str, sentence: str, flags: int = re.I) -> Iterator[re.Match[str]]:
    for match in re.finditer(pattern, sentence, flags):
        if not _negated(sentence, match.start()):
            yield match


_I_AM = r"(?:\b(?:I'm|I\s+am|Im|I’m|I've\s+been|I\s+have\s+been)|^\W*been)\s+"  # "I've been vegan since 2015" still is; "Been vegan for years"
# Adverbs between "I'm" and what the user is: "I'm happily married", "I'm recently divorced".
_STATE_ADVERBS = (r"(?:(?:also|currently|now|still|happily|recently|newly|just|finally|officially|proudly|strictly|"
                  r"mostly|fully|legally|basically|technically|always)\s+)*")  # fmt: skip


@rule
def name(s: str) -> Emit:
    for m in _each(rf"\b(?:my\s+name\s+is|my\s+name's|call\s+me)\s+{_NAME}", s):
        yield "name", m.group(1), m.start()


@rule
def copula(s: str) -> Emit:
    """ "I'm 29, vegetarian and allergic to cats", "I'm a nurse", "I'm married to Tom", "I'm from Ohio"."""
    for m in _each(_I_AM + _STATE_ADVERBS, s):
        rest = s[m.end() :]
        stop = re.search(r"\s*(?:[.;!?]|\b(?:but|so|since|because|when|while|though|although|whereas|unless)\b|"
                         r"\band\s+(?:I|we|i)\b|\b(?:I'm|I\s+am)\b)", rest)  # fmt: skip
        tail = rest[: stop.start()] if stop else rest
        for i, piece in enumerate(re.split(r"\s*,\s*(?:and\s+)?", tail)):
            lower = s == s.lower()
            # "a vegetarian for ten years" is a vegetarian, "vegan for about three years now 🌱" vegan
            piece = _DURATION.sub("", _unfill(_SYMBOLS_AFTER.sub("", piece)))
            said = list(_copula_piece(piece, m.start(), lower))
            # "I'm married, no kids, one very spoilt springer spaniel": a verbless list goes on
            if not said and i:
                said = list(_listed_have(piece, m.start()))
            if not said and " and " in piece:  # "unemployed and looking for work", "two sons and a greyhound"
                parts = [_unfill(part) for part in piece.split(" and ")]
                said = [f for part in parts for f in _copula_piece(part, m.start(), lower)]
                if not said and i:
                    said = [f for part in parts for f in _listed_have(part, m.start())]
            yield from said


@rule
def both(s: str) -> Emit:
    """ "Me and my fiancé are both nurses", "we're both huge Arsenal fans": what is said of both is said of the user."""
    if " both " not in s.lower():  # a substring test first: the frame is rare and the pattern is not cheap
        return
    for m in _each(rf"\b{_WE_ARE}\s+both\s+(.+)", s):
        said = _clause(m.group(1))
        if fans := re.fullmatch(
            r"(?:(?:huge|big|massive|die-?hard|mad)\s+)?(.+?)\s+(?:fans|supporters)", said, re.I
        ):
            yield "likes", fans.group(1), m.start()
        elif (plural := re.fullmatch(r"(?:an?\s+)?((?:[\w-]+\s+){0,2}[\w-]+?)s", said)) and (
            job := job_title(plural.group(1))
        ):
            yield "job_title", job, m.start()


_MEDICINES = (r"(?:medication|meds|pills|insulin|antidepressants|antibiotics|statins|steroids|blood\s+thinners|"
              r"beta\s+blockers|birth\s+control|the\s+pill|chemo|hrt|prep)")  # fmt: skip
# What a medicine comes in, part of its name: "an insulin pump", "a nicotine patch".
_DEVICE = r"(?:pump|pen|patch|patches|implant|injections|inhaler)"
# Medicines by their endings ("I'm on levothyroxine", "sertraline", "lisinopril", "atorvastatin", "omeprazole").
_DRUG = (r"(?!deadline|online|offline|airline|pipeline|hotline|frontline|helpline|wine|vaccine|medicine|time|line)"
         r"[a-z]{3,}(?:ine|pril|sartan|statin|azole|cillin|mycin|cycline|mab|azepam|olam|done|tidine|prazole|formin|"
         r"afil|triptan|profen|olol|oxetine|amine|pine|xine|zide|semide|thyroxine)")  # fmt: skip
_DURATION = re.compile(rf"\s+(?:for\s+(?:the\s+(?:past|last)\s+)?(?:about\s+|around\s+|nearly\s+|almost\s+|over\s+)?{_HOW_MANY}\s+\w+|since\s+.+|for\s+(?:years|ages|"
                       rf"decades|a\s+while|life|a\s+long\s+time)|all\s+my\s+life|my\s+whole\s+life)$", re.I)  # fmt: skip


def _listed_have(piece: str, at: int) -> Emit:
    """A counted pet or kin word said as an item of a list after "I'm" ("…, two kids, one very spoilt spaniel")."""
    if match := re.fullmatch(
        rf"({_NUM})\s+(?:[\w-]+\s+){{0,2}}?({PETS}|puppies|bunnies|ponies)s?", piece, re.I
    ):
        n = NUMBERS.get(match.group(1).lower()) if not match.group(1).isdigit() else int(match.group(1))
        kind = _SINGULAR.get(match.group(2).lower(), match.group(2).lower())
        yield "pet", f"{n} {_plural(kind)}" if n and n > 1 else kind, at
    elif match := re.fullmatch(rf"({_NUM})\s+(?:[\w-]+\s+){{0,2}}?({_KIN})", piece, re.I):
        yield (*_family(match.group(2), match.group(1)), at)


def _copula_piece(piece: str, at: int, lower: bool = False) -> Emit:
    low = piece.lower()
    if match := re.fullmatch(r"(\d{1,3})(?:\s+years?\s+old)?", low):
        yield "age", match.group(1), at
    elif (through := re.fullmatch(r"going\s+through\s+(?:the\s+)?(.+)", low)) and (
        found := condition(through.group(1))
    ):
        yield "health_condition", found, at  # "I'm 52, going through menopause"
    elif (eats := re.sub(r"^an?\s+", "", low)) in DIETS or _FREE_FROM.fullmatch(eats):
        yield "diet", eats, at  # "vegan", "a pescatarian", "lactose-free"
    elif match := re.fullmatch(
        r"on\s+an?\s+(?:(?:strict|new|special|mostly)\s+)?([\w-]+(?:\s+[\w-]+)?)\s+diet", low
    ):
        yield "diet", match.group(1), at
    elif match := re.fullmatch(rf"(?:(?:very|severely|slightly|partially|profoundly|mildly|borderline|clinically|"
                               rf"completely|totally|legally|\w+\s+(?:weeks?|months?))\s+)?({'|'.join(CONDITION_ADJECTIVES)})"
                               rf"(\s+in\s+(?:one|both|my\s+(?:left|right)|the\s+(?:left|right))\s+(?:ear|eye)s?)?", low):  # fmt: skip
        yield "health_condition", CONDITION_ADJECTIVES[match.group(1)] + (match.group(2) or ""), at
    elif match := re.fullmatch(r"type\s+([12])\s+diabetic", low):
        yield "health_condition", f"type {match.group(1)} diabetes", at
    elif match := re.match(
        r"(?:(?:really|very|quite|so|super|pretty|absolutely|totally)\s+)?(?:obsessed\s+with|crazy\s+about|passionate\s+about|"
        r"mad\s+about|fond\s+of|keen\s+on|partial\s+to|a\s+sucker\s+for|big\s+on|hooked\s+on|addicted\s+to)\s+(.+)",
        piece,
        re.I,
    ):
        for item in _items(match.group(1)):
            yield "likes", item, at
    elif match := re.match(
        rf"in\s+my\s+(?:first|second|third|fourth|final|last)\s+year\s+at\s+{_PROPER}", piece
    ):
        yield "school", match.group(1).rstrip(",."), at
    elif match := re.match(
        rf"(?:very\s+|severely\s+|really\s+|mildly\s+)?{_ALLERGIC}\s+to\s+(.+)", piece, re.I
    ):
        for item in _items(match.group(1)):
            yield "allergy", item, at
    elif re.match(r"(?:married|engaged|divorced)\s+(?:twice|once|before|\w+\s+times)\b", low):
        pass  # "I've been married twice" says nothing about now
    elif match := re.match(rf"(married|engaged)(?:\s+to\s+{_NAME})?", piece, re.I):
        yield "marital_status", match.group(1).lower(), at
        if match.group(2):
            yield "partner", match.group(2), at
        if kids := re.search(
            rf"\bwith\s+({_NUM})\s+(kids|children|sons|daughters|boys|girls)\b", piece, re.I
        ):
            yield (*_family(kids.group(2), kids.group(1)), at)
    elif match := re.fullmatch(rf"({'|'.join(MARITAL)})(?:\s+(?:from|since)\b.*)?", low):
        yield "marital_status", match.group(1), at  # "separated from my husband"
    elif low in _JOB_STATES:
        yield "job_title", _JOB_STATES[low], at
    elif match := re.match(rf"(?:originally\s+)?from\s+{_SETTLEMENT}{_PROPER}", piece):
        yield "hometown", match.group(1).rstrip(",."), at
    elif lower and (
        match := re.match(rf"(?:originally\s+)?from\s+{_SETTLEMENT}(?:the\s+)?{_PLACE_LOWER}", piece)
    ):
        if match.group(1) not in _NOT_PLACES and match.group(1) not in ("work", "school", "home", "office"):
            yield "hometown", match.group(1), at
    elif match := re.match(r"an?\s+only\s+child\b", low):
        yield "family", "only child", at
    elif match := re.fullmatch(rf"an?\s+(?:(single|stay-at-home|working|new|proud|first-time|busy|full-time)\s+)?"
                               rf"(grand)?(?:mom|mum|mother|dad|father|parent|ma|pa)(?:\s+(?:of|to)\s+({_NUM})\b.*)?", low):  # fmt: skip
        # "I'm a single mum", "I'm a dad of three": the user has children.
        if match.group(1) == "single":
            yield "marital_status", "single", at
        yield (*_family("grandchildren" if match.group(2) else "children", match.group(3)), at)
    elif match := re.fullmatch(r"an?\s+(?:proud\s+|true\s+|born-and-bred\s+)?(?-i:([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)er)"
                               r"(?:\s+born\s+and\s+bred|\s+through\s+and\s+through|\s+at\s+heart)?", piece):  # fmt: skip
        # "I'm a Londoner", "a New Yorker": the place the user is of. Not "a Northerner", "a Pacific Islander".
        if not re.search(r"^(?:North|South|East|West|Outsid|Foreign|Believ|Lov|Play|Us)|(?:Island|Highland|Lowland)$",
                         match.group(1)) and len(match.group(1)) >= 5:  # fmt: skip
            yield "lives_in", match.group(1), at
    elif match := re.match(rf"an?\s+native\s+of\s+{_PROPER}", piece):
        yield "hometown", match.group(1).rstrip(",."), at
    elif match := re.fullmatch(r"an?\s+(?:(?:huge|big|massive|die-?hard|lifelong|long-time|loyal|massive)\s+)?"
                               r"((?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})|[a-z-]+(?:\s+[a-z-]+)?)\s+fan", piece):  # fmt: skip
        if match.group(1).lower() not in (
            "big",
            "huge",
            "ceiling",
            "desk",
            "sports",
            "music",
            "football",
            "film",
        ):
            yield "likes", match.group(1), at  # "I'm a huge Arsenal fan", "a jazz fan"
    elif match := re.match(r"(?:an?\s+)?(?:(?:huge|big|massive)\s+)?fan\s+of\s+(.+)|(?:(?:really|very|so|big|super)\s+)?into\s+(.+)", piece, re.I):  # fmt: skip
        for item in _items(match.group(1) or match.group(2)):
            if item.lower() not in _NOT_ITEMS:
                yield "likes", item, at
    elif (
        match := re.match(
            rf"on\s+(?:an?\s+)?((?:[\w-]+\s+){{0,3}}{_MEDICINES}(?:\s+{_DEVICE})?)\b", piece, re.I
        )
    ) or (
        match := re.fullmatch(
            rf"(?:on|taking)\s+({_DRUG})(?:\s+(?:this\s+week|at\s+the\s+moment))?(?:\s+(?:for\s+.+|daily|every\s+\w+|now))?",
            low,
        )
    ):
        yield "medication", match.group(1), at  # "on blood pressure medication", "on sertraline"
    elif match := re.fullmatch(
        r"an?\s+(\d{1,3})\s+year\s+old\s+(?!(?:at|in|on|for|with|inside|trapped)\b)([a-z].*)", piece, re.I
    ):
        yield "age", match.group(1), at  # "I'm a 34 yo mechanic" (normalised), "a 40 year old mum of two"
        yield from _copula_piece("a " + match.group(2), at, lower)
    elif match := re.match(rf"(?:an?\s+)?ex-{_PROPER}(?:\s+([a-z][\w -]*))?$", piece):
        # "I'm ex-McKinsey", "an ex-Google engineer": where the user worked (and the job, if said)
        if not job_title(match.group(1)):
            yield "former_employer", match.group(1).rstrip(",."), at
            if match.group(2) and (job := job_title(match.group(2))):
                yield "job_title", job, at
    elif re.match(r"(?:an?|the)\s|(?:head|senior|junior|lead|chief|principal|deputy|sous|staff)\s", low):
        # "I'm a nurse", "I'm head chef at …"
        words = re.sub(r"^(?:an?|the)\s+", "", piece)
        if job := job_title(words):
            yield "job_title", job, at
            rest = words[len(job) :]
            if place := re.match(rf"\s+(?:in|from)\s+{_PROPER}", rest):
                yield "lives_in", place.group(1).rstrip(",."), at
            if school := re.match(
                rf"\s+(?:(?:over\s+|out\s+|down\s+|up\s+)?at|for|with(?=\s+(?:the\s+)?(?-i:[A-Z]\w*\s+[A-Z])))\s+{_CALLED}{_PROPER}",
                rest,
            ):
                yield ("school" if job.lower().endswith("student") else "employer"), school.group(1), at
            if job.lower().endswith("student") and (field := re.match(r"\s+in\s+([a-z][\w ]*)", rest)):
                yield "studies", _items(field.group(1))[0], at
            if study := re.search(r"\bstudying\s+([\w ]+)", rest):
                yield "studies", _items(study.group(1))[0], at


# Adverbs that may sit inside a verb of liking: "I really like", "I've always loved", "I don't really like".
_DEGREE = (r"(?:(?:really|absolutely|also|just|totally|genuinely|genuinly|truly|honestly|do|quite|still|always|simply|"
           r"especially|particularly|much|actually|kinda|kind\s+of|sort\s+of|so|very|secretly)\s+)*")  # fmt: skip
_PERFECT = r"(?:'ve|\s+have)?"  # "I've always loved", "I've never liked"
_NOT_ITEMS = ("my", "your", "his", "her", "our", "their", "yours", "mine", "you", "him", "them", "us", "it")


# Sarcasm says the opposite: an interjection ("oh yeah", "oh great", "yeah right") with a shouted or "just" love or
# "best part of my day", or a "said no one ever" / "/s" anywhere.
_SARCASM = re.compile(r"\bsaid\s+no\s+one\s+ever\b|\s/s\b|^\W*yeah\s+right\b|^(?=\W*(?:oh\s+(?:yeah|great|joy|wow|sure|boy)|yeah\s+right|wow)\b)"
                      r".*(?:\b(?-i:LOVE|LIKE|ENJOY|ADORE)\b|\bjust\s+(?:love|adore)|\bbest\s+part\s+of\s+my\s+(?:day|week)\b)", re.I)  # fmt: skip
# "The only thing I hate eating is olives", "What I love most is hiking": the thing is after the verb "is".
_THE_THING = (r"\b(?:the\s+(?:only|one|main)\s+thing|the\s+thing|what)\s+I\s+(don'?t\s+|do\s+not\s+)?" + _DEGREE + r"(like|love|enjoy|adore|hate|"
              r"dislike|detest|loathe|can'?t\s+stand)(?:\s+[a-z]+ing)?(?:\s+(?:the\s+)?most)?\s+(?:is|are)\s+"
              r"(?!(?:when|that|how|if|the\s+way|because)\b)(.+)")  # fmt: skip


def _in_the_thing(s: str, at: int) -> bool:
    """``at`` is inside a "the only thing I hate eating is …" frame, which its own rule reads."""
    low = s.lower()
    if "thing" not in low and "what" not in low:
        return False
    return any(m.start() <= at < m.end() for m in re.finditer(_THE_THING, s, re.I))


@rule
def likes(s: str) -> Emit:
    low = s.lower()
    for m in re.finditer(_THE_THING, s, re.I) if "thing" in low or "what" in low else ():
        kind = "likes" if m.group(2).lower() in ("like", "love", "enjoy", "adore") else "dislikes"
        if m.group(1):  # "the only thing I don't like is …"
            kind = "dislikes" if kind == "likes" else "likes"
        for item in _items(m.group(3)):
            if not re.match(rf"(?:{'|'.join(_NOT_ITEMS)})\b", item, re.I):
                yield kind, item, m.start()
    # "My dad's a massive Arsenal fan and so am I"
    too = " too" in low or " so " in low
    for m in () if not too else _each(r"(?:'s|\s+is|\s+are|'re)\s+(?:a\s+)?(?:(?:huge|big|massive|die-?hard|lifelong)\s+)?"
                   r"((?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})|[a-z-]+)\s+fans?,?\s+(?:and|as)\s+(?:so\s+am\s+I|I\s+am\s+too|I'm\s+too|me\s+too)\b", s):  # fmt: skip
        if m.group(1).lower() not in ("big", "huge", "massive", "a"):
            yield "likes", m.group(1), m.start()
    # "My wife loves opera and so do I"
    for m in () if not too else _each(r"\b(?:loves|likes|enjoys|adores|love|like|enjoy|adore)\s+(.+?),?\s+(?:and|as)\s+(?:so\s+do\s+I|I\s+do\s+too|me\s+too)\b", s):  # fmt: skip
        if not re.match(r"\s*(?:I|we)\s*$", s[: m.start()], re.I):
            for item in _items(m.group(1)):
                if not re.match(rf"(?:{'|'.join(_NOT_ITEMS)})\b", item, re.I):
                    yield "likes", item, m.start()
    if _SARCASM.search(s):
        return
    verbs = rf"{_PERFECT}\s+{_DEGREE}(?:like|love|enjoy|adore|prefer|liked|loved|enjoyed|adored|dig)"
    for m in _each(rf"\b(?:I|we){verbs}\s+(?!to\b|it\b|that\b|you\b|when\b|how\b|the\s+idea\b)(.+)", s):
        if _in_the_thing(s, m.start()):
            continue
        for item in _items(m.group(1)):
            if not re.match(rf"(?:{'|'.join(_NOT_ITEMS)})\b", item, re.I):  # "I love my job": no preference
                yield "likes", item, m.start()
    for m in _each(
        r"^\W*(?:(?:huge|big)\s+)?fan\s+of\s+(.+)|^\W*(?:huge|big|really|very|so)\s+into\s+(.+)", s
    ):  # "Big fan of sci-fi here"
        for item in _items(re.sub(r"\s+here\b.*$", "", m.group(1) or m.group(2))):
            yield "likes", item, m.start()
    for m in _each(r"\bmy\s+fav(?:ou?rite)?\s+([\w ]{1,30}?)\s+(?:is|are)\s+(.+)", s):
        kind = "hobby" if re.search(r"\b(?:hobby|hobbies|pastime)$", m.group(1), re.I) else "likes"
        for item in _items(m.group(2), cut_prepositions=False):
            yield kind, item, m.start()
    # The other way round: "Ramen is my favourite food", "Mondays are my least favourite day".
    # the fifth pass: a list as the subject ("Gardening and crosswords are my two great loves")
    for m in re.finditer(r"^\W*((?:the\s+)?[\w'-]+(?:\s+[\w'-]+){0,4}?)(?:\s+(?:is|are)(?:n't)?|'s|\s+has\s+always\s+been|\s+have\s+always\s+been)\s+"
                         r"(not\s+|n't\s+)?(?:really\s+|probably\s+|definitely\s+|easily\s+)?my\s+(least\s+)?"
                         r"(?:(?:one|two|three|four|true|great|big|biggest|real|current|latest|new|all-time|only)\s+)*"
                         r"(?:fav(?:ou?rite)?s?|favou?rites?|thing|jam|passions?|obsessions?|loves|guilty\s+pleasures?|cup\s+of\s+tea|weakness)\b"
                         r"(?:\s+(hobby|hobbies|pastime)\b)?", s, re.I):  # fmt: skip
        things = _items(m.group(1), cut_prepositions=False) if " and " in m.group(1) else [_clean(m.group(1))]
        for thing in things:
            yield from _inverse_liking(m, thing)
    # "Bollywood musicals make me so happy": what makes the user happy is a liking
    for m in re.finditer(r"^\W*((?:the\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)\s+(?:always\s+|really\s+|just\s+|still\s+)?makes?\s+me\s+"
                         r"(?:so\s+|really\s+|very\s+|genuinely\s+|super\s+|ridiculously\s+)?(?:happy|smile|laugh)\b", s, re.I):  # fmt: skip
        for thing in _items(m.group(1), cut_prepositions=False):
            if thing.lower() not in _NOT_ITEMS and not re.match(
                r"(?:my|your|his|her|our|their|this|that|it|he|she|they|who|what)\b", thing, re.I
            ):
                yield "likes", thing, m.start()
    # "I love to travel": a verb liked (not "I like to think …")
    for m in _each(rf"\bI{_PERFECT}\s+{_DEGREE}(?:love|like|enjoy|adore)\s+to\s+(?!(?:think|know|say|be|have|help|keep|imagine|believe|see|hear|point|remind|make|ask|get|go|let|stay|check|mention|add|note|start)\b)([a-z]+)(?=\s*(?:[,.!;]|$))", s):  # fmt: skip
        yield "likes", m.group(1), m.start()
    for m in _each(r"\bI\s+can't\s+get\s+enough\s+of\s+(.+)", s):  # "I can't get enough of sushi"
        for item in _items(m.group(1)):
            yield "likes", item, m.start()


def _inverse_liking(m: re.Match[str], thing: str) -> Emit:
    """ "Ramen is my favourite food": the liking (or dislike, or pastime) the inverse frame ``m`` states of ``thing``."""
    pronouns = ("it", "that", "this", "which", "what", "there", "he", "she", "they", "who")
    if thing.lower() in pronouns or re.match(r"(?:my|your|his|her|our|their)\b", thing, re.I):
        return
    negative = m.group(2) or m.group(3) or "n't" in m.group(0)
    kind = "dislikes" if negative else "hobby" if m.group(4) else "likes"
    yield kind, thing, m.start()


@rule
def diet(s: str) -> Emit:
    """ "I've gone vegan", "I went gluten-free last year", "I eat plant-based"."""
    for m in _each(r"\bI(?:'ve|\s+have)?\s+(?:recently\s+|just\s+|finally\s+|also\s+)?(?:gone|went|become|became|turned|"
                   r"(?:been\s+)?eat(?:ing)?)\s+(?:fully\s+|completely\s+|strictly\s+|mostly\s+)?(?:an?\s+)?([\w-]+)", s):  # fmt: skip
        word = m.group(1).lower()
        if word in DIETS or _FREE_FROM.fullmatch(word):
            yield "diet", word, m.start()


@rule
def dislikes(s: str) -> Emit:
    verbs = (rf"(?:{_PERFECT}\s+{_DEGREE}(?:hate|hated|dislike|detest|loathe|despise|can'?t\s+stand|cannot\s+stand|can'?t\s+bear)|"
             rf"(?:\s+don'?t|\s+do\s+not|\s+never|\s+have\s+never|'ve\s+never)\s+{_DEGREE}(?:like|liked|enjoy|enjoyed|care\s+for|cared\s+for))")  # fmt: skip
    # "cant stand reality tv": the subject left out, an apostrophe too
    elided = (rf"^\W*(?:honestly\s+|really\s+|just\s+)?(?:can'?t|cannot)\s+(?:stand|bear)|"
              rf"^\W*(?:honestly\s+)?(?:don'?t|do\s+not|never)\s+{_DEGREE}(?:like|enjoy|care\s+for)")  # fmt: skip
    for m in re.finditer(rf"(?:\bI{verbs}|{elided})\s+{_DEGREE}(?!to\b|it\b|that\b|when\b|how\b|you\b|him\b|her\b|them\b)(.+)", s, re.I):  # fmt: skip
        if _in_the_thing(s, m.start()):
            continue
        for item in _items(m.group(1)):
            if not re.match(rf"(?:{'|'.join(_NOT_ITEMS)})\b", item, re.I):
                yield "dislikes", item, m.start()
    for m in re.finditer(r"(?:\bI'm\s+|\bI\s+am\s+|^\W*)(?:not|\bI(?:'ve|\s+have)\s+never\s+been)\s+(?:a\s+|much\s+of\s+a\s+|really\s+a\s+|really\s+|very\s+|that\s+|too\s+)?"
                         r"(?:(?:big|huge)\s+fan\s+of|fan\s+of|keen\s+on|fond\s+of|into)\s+(.+)", s, re.I):  # fmt: skip
        for item in _items(m.group(1)):
            if not re.match(rf"(?:{'|'.join(_NOT_ITEMS)})\b", item, re.I):
                yield "dislikes", item, m.start()


@rule
def avoids(s: str) -> Emit:
    verbs = r"(?:don't|do\s+not|never|no\s+longer|can't|cannot)\s+(?:eat|drink|touch|consume)"
    quit = (r"(?:'ve|\s+have)?\s+(?:stopped|quit|given\s+up|cut\s+out|cut\s+back\s+on)\s+(?:eating|drinking)|"
            r"(?:'ve|\s+have)?\s+(?:given|gave)\s+up|(?:'ve|\s+have)?\s+cut\s+out|\s+(?:try\s+to\s+|always\s+|strictly\s+)?"
            r"(?:avoid|stay\s+away\s+from|steer\s+clear\s+of|abstain\s+from)")  # fmt: skip
    for m in re.finditer(rf"\bI(?:\s+{verbs}|{quit})\s+(?!much\b|a\s+lot\b|enough\b|on\b|any\b|it\b|that\b|them\b|him\b|her\b|people\b)(.+)", s, re.I):  # fmt: skip
        for item in _items(m.group(1)):
            # "I gave up sugar last year", "I quit drinking two years ago": the when is not the what.
            when = _PAST_TIME.search(item)
            if when and when.end() == len(item):
                item = item[: when.start()].strip()
            if not item or (
                re.search(r"avoid|away|clear|abstain", m.group(0), re.I)
                and item.split()[0].lower().endswith("ing")
            ):
                continue  # "I avoid driving at night" is a habit, not a food
            # "I never drink coffee after 2pm" is a habit, not a food avoided.
            if not re.search(
                rf"{re.escape(item)}\s+(?:after|before|at\s+night|in\s+the\s+evening|on\s+week)", s, re.I
            ):
                yield "avoids", item, m.start()
    # "I quit drinking", "I've stopped smoking": the habit itself is what is avoided ("quit drinking coffee" is
    # about coffee, above).
    for m in _each(r"(?:\bI(?:'ve|\s+have)?|^\W*)\s*(?:just\s+|finally\s+|recently\s+)?(?:stopped|quit|given\s+up|gave\s+up)\s+"
                   r"(drinking|smoking|vaping|gambling)\b", s):  # fmt: skip
        if not re.match(r"\s+(?!(?:a|an|one|two|three|four|five|six|\d+|last|in|on|since|for|at|about|ago|now|"
                        r"yesterday|today|recently|completely|entirely|altogether|and|but|so|because)\b)[a-z]",
                        s[m.end() :], re.I):  # fmt: skip
            yield "avoids", m.group(1).lower(), m.start()


# Said of what someone does, these make it a pastime: "Outside of work I mostly do crochet", "… my favourite way to
# switch off".
_LEISURE = re.compile(r"\b(?:outside\s+(?:of\s+)?work|on\s+(?:the\s+)?weekends|(?:most|every)\s+(?:weekends?|evenings?|sundays?|saturdays?)|at\s+(?:the\s+)?weekends|after\s+work|in\s+my\s+(?:spare|free|down)\s*time|for\s+fun|as\s+a\s+hobby|"
                      r"(?:my\s+)?fav(?:ou?rite)?\s+way\s+to\s+(?:relax|unwind|switch\s+off|chill|de-?stress|decompress|"
                      r"wind\s+down|spend\s+(?:my\s+)?(?:weekends?|evenings?|time))|keeps\s+me\s+sane|helps\s+me\s+(?:relax|unwind|switch\s+off))\b", re.I)  # fmt: skip


# Making things as a pastime: what is made is the hobby ("I build model railways in my spare time").
_CRAFT = r"(?:build|make|knit|crochet|sew|paint|bake|brew|restore|grow|carve|sketch)"
_MEALS = frozenset(
    {"dinner", "lunch", "breakfast", "tea", "coffee", "food", "meals", "bed", "beds", "homework"}
)


@rule
def hobby(s: str) -> Emit:
    if _LEISURE.search(s):
        for m in _each(r"(?:\bI(?:'ve\s+been|\s+have\s+been)?|^\W*been)\s+(?:(?:mostly|usually|also|often|mainly|really|just)\s+)?"
                       rf"(?:do|doing|play|playing|go|going|{_CRAFT})\s+(?:a\s+lot\s+of\s+|lots\s+of\s+|a\s+bit\s+of\s+)?(?!(?:a|an|the|some|my|it|that|this|nothing|something|anything|"
                       r"stuff|things|what|to|out|home|back|for|with|on|in|at)\b)([a-z].+)", s):  # fmt: skip
            for item in _items(m.group(1)):
                # "… and do a bit of beekeeping": the second pastime's verb and measure are not part of it
                item = re.sub(
                    rf"^(?:do|play|go|{_CRAFT})\s+(?:a\s+(?:bit|lot)\s+of\s+|lots\s+of\s+|some\s+)?",
                    "",
                    item,
                    flags=re.I,
                )
                item = _LEISURE.sub("", item).strip()  # "wild swimming most weekends": not its time
                if item and item.split()[0].lower() not in _MEALS:
                    yield "hobby", item, m.start()
    for m in _each(r"\bI\s+(?:also\s+)?collect\s+(.+)", s):
        for item in _items(m.group(1)):
            yield "hobby", item, m.start()
    for m in _each(r"\bI\s+(?:also\s+)?play\s+(?:the\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", s):
        played = _items(m.group(1))
        if played and played[0].lower() not in ("with", "it", "around", "games", "a", "along", "music"):
            yield "hobby", played[0], m.start()
    for m in _each(r"\bmy\s+hobb(?:y|ies)\s+(?:is|are|include)\s+(.+)", s):
        for item in _items(m.group(1), cut_prepositions=False):
            yield "hobby", item, m.start()


@rule
def health(s: str) -> Emit:
    allergic = (
        "lerg" in s.lower() or "legic" in s.lower()
    )  # cheap test first: the allergy frames below need it
    for m in _each(rf"\b(?:I'm|I\s+am|I'm\s+also|I\s+am\s+also)\s+(?:very\s+|severely\s+|really\s+|mildly\s+)?{_ALLERGIC}\s+to\s+(.+)", s):  # fmt: skip
        for item in _items(m.group(1)):
            yield "allergy", item, m.start()
    # "I have a nut allergy", "my tree nut allergy": the user's own, not "my son's peanut allergy".
    for m in () if not allergic else _each(rf"\b(?:I{_HAVE}\s+(?:a\s+|an\s+)?|my\s+){_ALLERGY_ADJ}(?!(?:severe|mild|slight|bad|serious|an?)\b)([\w-]+(?:\s+[\w-]+)?)\s+{_ALLERGY}\b", s):  # fmt: skip
        words = m.group(1).lower().split()
        if not any(
            w.endswith("'s") or w in RELATIVES or w in PARTNERS or w in _NOT_CONDITION_WORDS for w in words
        ):
            yield "allergy", m.group(1), m.start()
    # "I have a mild allergy to dust mites"
    for m in (
        ()
        if not allergic
        else _each(
            rf"(?:\bI(?:{_HAVE}(?:\s+had)?|\s+had)\s+(?:a\s+|an\s+)?|\bmy\s+){_ALLERGY_ADJ}{_ALLERGY}\s+to\s+(.+?)(?=\s+(?:is|are|was|gets?|got|makes?)\b|$)",
            s,
        )
    ):
        for item in _items(m.group(1)):
            yield "allergy", item, m.start()
    for m in _each(rf"\bmy\s+{_ALLERGY}\s+(?:are|include)\s+(.+)", s):
        for item in _items(m.group(1), cut_prepositions=False):
            yield "allergy", item, m.start()
    # "Been struggling with insomnia for months": the subject left out
    for m in _each(
        r"^\W*(?:been\s+(?:dealing|struggling|living|battling|diagnosed)|(?:just\s+|recently\s+)?got\s+diagnosed)\s+with\s+(?:(?:a|an|chronic|severe|bad)\s+)*(.+)",
        s,
    ):
        if found := condition(m.group(1)):
            yield "health_condition", found, m.start()
    # "I've got asthma and a nut allergy": an allergy further down the list
    if re.search(rf"\bI{_HAVE}\s", s, re.I):
        for m in _each(rf"(?:,|\band)\s+(?:a|an)\s+{_ALLERGY_ADJ}([\w-]+)\s+{_ALLERGY}\b", s):
            yield "allergy", m.group(1), m.start()
    strong = (
        r"\bI(?:(?:'ve|\s+have|'m|\s+am)\s+(?:been\s+)?(?:dealing|struggling|living|diagnosed)\s+with|"
        r"\s+(?:live|struggle|was\s+diagnosed|got\s+diagnosed)\s+with|\s+suffer\s+from)\s+(?-i:([A-Z]{2,5}))\b"
    )
    for m in _each(
        strong, s
    ):  # "I've been living with MS": an acronym after a verb that only takes conditions
        yield "health_condition", m.group(1), m.start()
    # "got diagnosed with" before "got": a match is not tried again with another branch
    verbs = (rf"(?:\s+(?:was|got)\s+diagnosed\s+with|(?:'ve|\s+have|'m|\s+am)\s+(?:been\s+)?(?:dealing|struggling|living|diagnosed)\s+with|\s+struggle\s+with|'ve\s+had|"
             rf"\s+have\s+had|{_HAVE}|\s+suffer\s+(?:from|with)|\s+live\s+with|\s+battle|"
             rf"\s+(?:often\s+|sometimes\s+|still\s+|regularly\s+)?get|(?:'m|\s+am)\s+(?:being\s+treated\s+for|recovering\s+from|in\s+remission\s+from))")  # fmt: skip
    for m in _each(rf"\bI{verbs}\s+(?:(?:a|an|chronic|severe|mild|bad|terrible|awful|frequent|occasional|serious|really|pretty)\s+)*(.+)", s):  # fmt: skip
        found = condition(m.group(1))
        if found and not re.match(r"\s*all?erg", m.group(1)[len(found) :], re.I):
            yield "health_condition", found, m.start()
    # "I started HRT a couple of months ago", "I went on statins": starting a medicine is taking it
    for m in _each(rf"\bI\s+(?:(?:just|recently|finally)\s+)?(?:started|began|went\s+on|got\s+put\s+on)\s+(?:on\s+|taking\s+)?((?:[\w-]+\s+)?{_MEDICINES}|{_DRUG})\b", s):  # fmt: skip
        yield "medication", m.group(1), m.start()
    # "I use an inhaler for my asthma", "I'm taking sertraline for anxiety": a treatment and what it treats.
    treat = (r"\bI(?:\s+(?:also\s+)?(?:use|take|need)|'m\s+(?:on|taking|using)|\s+am\s+(?:on|taking|using)|"
             r"'ve\s+been\s+(?:on|taking|using))\s+(?:an?\s+|my\s+|some\s+)?(?!the\b|it\b|this\b|that\b|time\b)"
             r"([\w-]+(?:\s+[\w-]+)?)\s+(?:(?:every\s+\w+|daily|twice\s+a\s+day|once\s+a\s+day)\s+)?"
             r"(?:for\s+(?:years|ages|months|a\s+while|a\s+long\s+time|\w+\s+(?:years|months|weeks))\s+)?"
             r"(?:for|because\s+of|due\s+to|to\s+(?:manage|control|treat|help\s+with))\s+(?:my\s+)?(.+)")  # fmt: skip
    for m in _each(treat, s):
        if (found := _my_condition(m.group(2))) and m.group(1).lower() not in _NOT_CONDITION_WORDS:
            yield "medication", m.group(1), m.start()
            yield "health_condition", found, m.start()
        elif (
            re.match(r"(?:it|them|that|this)\b", m.group(2), re.I)
            and m.group(1).lower() not in _NOT_CONDITION_WORDS
            and any(condition(s[w.start() :]) for w in re.finditer(r"\b\w", s[: m.start()]))
        ):
            yield "medication", m.group(1), m.start()  # "diagnosed with ADHD … I'm on Ritalin for it"
    # "I take iron tablets", "I use steroid cream": a medicine named by its form
    form = r"(?:tablets|pills|capsules|supplements|drops|injections|jabs|patches|cream|spray|inhaler|shots|gummies)"
    for m in () if not re.search(form, s, re.I) else _each(rf"\bI(?:\s+(?:also\s+)?(?:take|use)|'m\s+(?:on|taking|using)|\s+am\s+(?:on|taking|using)|'ve\s+been\s+(?:on|taking|using))\s+(?:an?\s+|my\s+|some\s+)?([a-z][\w-]*(?:\s+[a-z0-9][\w-]*)?\s+{form})\b", s):  # fmt: skip
        if m.group(1).split()[0].lower() not in _NOT_CONDITION_WORDS | {"the", "those", "these"}:
            yield "medication", m.group(1), m.start()
    # "My doctor put me on statins"
    for m in _each(
        rf"\b(?:put|started|switched)\s+me\s+on\s+((?:[\w-]+\s+){{0,2}}{_MEDICINES}|{_DRUG})\b", s
    ):
        yield "medication", m.group(1), m.start()
    # "the pain from my tendonitis": a condition the user calls theirs.
    for m in _each(r"\bmy\s+(?:(?:chronic|severe|mild|bad)\s+)?(.+)", s):
        if found := _my_condition(m.group(1)):
            yield "health_condition", found, m.start()
    for m in _each(r"\bI(?:\s+take|\s+am\s+taking|'m\s+taking)\s+(?!the\b|a\b|an\b|my\b|care\b|it\b|time\b|part\b|notes\b|turns\b|over\b)([a-z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)\s*(?:every|each|daily|twice|once|for|in\s+the|at\s+night|[,.;]|$)", s):  # fmt: skip
        yield "medication", m.group(1), m.start()


@rule
def work(s: str) -> Emit:
    shifts = r"(?:\s+(?:nights|days|evenings|weekends|shifts|nights\s+and\s+weekends|part[-\s]time|full[-\s]time|freelance|remotely))?"
    for m in _each(rf"\b(?:I|we)(?:\s+work|\s+am\s+working|'m\s+working){shifts}\s+as\s+(?:an?\s+)?(.+)", s):
        if job := job_title(m.group(1)) or _clause(m.group(1)).strip():
            yield "job_title", _clean(job), m.start()
    for m in _each(r"\bI\s+teach\s+([a-z]+)", s):  # "I teach maths" is a maths teacher
        subject = m.group(1).lower()
        plain = subject in _NOT_SUBJECTS
        yield "job_title", "teacher" if plain else f"{subject} teacher", m.start()
    for m in _each(r"\bI(?:'ve|’ve|\s+have)\s+been\s+an?\s+(.+)", s):  # "I've been a lawyer for ten years"
        if been := job_title(m.group(1)):
            yield "job_title", been, m.start()
    degree = r"(?:master'?s|masters|bachelor'?s|degree|phd|doctorate|mba|msc|bsc|ba|ma)(?:\s+degree)?"
    for m in _each(rf"\b{degree}\s+in\s+([a-z][\w -]*?)(?:\s+at\s+{_PROPER})?\s*(?:[,.;!]|$|\band\b|\bat\b)", s):  # fmt: skip
        if re.search(
            r"\b(?:apply(?:ing)?|applied|application)\s+(?:for|to)\s+(?:a|an|my|the)\s+$",
            s[: m.start()],
            re.I,
        ):
            continue  # "I'm applying for a master's in data science": not studying it yet (the plan rule has it)
        yield "studies", m.group(1), m.start()
        if m.group(2):
            yield "school", m.group(2), m.start()
    # "Final year of my law degree at Durham": the field before the degree, and where
    for m in () if not re.search(r"degree|phd|master|diploma|apprenticeship", s, re.I) else _each(rf"\b(?:my|a|an)\s+((?:[a-z]+\s+){{1,2}}?)(?:degree|phd|masters|master's|diploma|apprenticeship)\b(?:\s+at\s+{_PROPER})?", s):  # fmt: skip
        field = m.group(1).strip()
        if (
            field.split()[0].lower() in _NOT_FIELDS
            or _others_named(s[: m.start()])
            or re.search(
                r"\b(?:apply(?:ing)?|applied|application|want|wanted|hoping|hope|thinking|decided|going|gonna|plan\w*|will|'ll)\b",
                s[: m.start()],
                re.I,
            )
            or _FUTURE_TIME.search(s)
        ):
            continue
        yield "studies", field, m.start()
        if m.group(2):
            yield "school", m.group(2).rstrip(",."), m.start()
    for m in _each(rf"\b(?:my|a|an)\s+{degree}\s+at\s+{_PROPER}", s):  # "I'm doing my PhD at Edinburgh"
        yield "school", m.group(1).rstrip(",."), m.start()
    for m in _each(r"\bmy\s+(?:job|job\s+title|role|title|position|occupation)\s+is\s+(?:an?\s+)?(.+)", s):
        if value := _clean(_clause(m.group(1))):
            yield "job_title", value, m.start()
    for m in _each(r"\b(?:as|promoted\s+to)\s+(?:an?\s+|the\s+)?([\w-]+(?:\s+[\w-]+){0,3})", s):
        promoted = job_title(m.group(1))
        # "Been at Accenture six years, mostly as a consultant": the subject left out
        if promoted and re.search(r"\b(?:I|I'm|we)\b|^\W*(?:been|working|worked)\b", s[: m.start()], re.I):
            yield "job_title", promoted, m.start()
            # "hired as a data analyst at Monzo": where, too
            at = re.match(rf"\s*(?:an?\s+|the\s+)?{re.escape(promoted)}\s+(?:at|for|with)\s+{_CALLED}{_PROPER}", s[m.end() - len(m.group(1)) - 3 :], re.I)  # fmt: skip
            if at and not job_title(at.group(1)):
                yield "employer", at.group(1).rstrip(",."), m.start()
    employed = (r"\bI(?:\s+work|\s+am\s+working|'m\s+working|\s+currently\s+work)(?:\s+(?:remotely|from\s+home|full[-\s]time|part[-\s]time))?\s+(?:at|for)|\bI'm\s+employed\s+(?:at|by)|"
                r"\bI\s+am\s+employed\s+(?:at|by)|\bI\s+(?:just\s+|recently\s+)?joined|"
                r"\bI\s+(?:just\s+|recently\s+)?(?:started|got|landed|have|took)\s+(?:a\s+)?(?:new\s+)?job\s+(?:at|with)|"
                r"\bI\s+(?:just\s+|recently\s+)?started\s+(?:working\s+)?(?:at|for)|\band\s+(?:started\s+working|work)\s+(?:at|for)|"
                r"\bI\s+work\s+in\s+[\w -]{1,30}?\s+(?:at|for)")  # fmt: skip
    for m in _each(rf"(?:{employed})\s+{_CALLED}{_PROPER}", s):
        yield "employer", m.group(1).rstrip(",."), m.start()
    former = (r"\bI\s+(?:used\s+to\s+work|no\s+longer\s+work|worked|don't\s+work|do\s+not\s+work)\s+(?:at|for)|"
              r"\bI\s+(?:left|quit)(?:\s+my\s+job\s+at)?|\bI\s+(?:got|was)\s+(?:laid\s+off|fired|let\s+go|made\s+redundant)\s+(?:from|by)|"
              r"\bI\s+resigned\s+from")  # fmt: skip
    for m in _each(rf"\bI(?:'ve|’ve|\s+have)\s+(?:been\s+)?work(?:ed|ing)\s+(?:at|for)\s+{_PROPER}(?=\s+(?:for|since)\b)", s):  # fmt: skip
        yield "employer", m.group(1).rstrip(",."), m.start()
    # "Been at Accenture about six years now": where the user has been for years is where they work.
    tenure = (rf"(?=\s+(?:now\s+)?(?:for\s+)?(?:about\s+|almost\s+|nearly\s+|over\s+|around\s+|just\s+over\s+)?{_HOW_MANY}\s+"
              rf"(?:years?|months?)\b|\s+since\s+(?:\d{{4}}|{_MONTH}|last\s+year|uni|university|college|graduating)\b)")  # fmt: skip
    for m in _each(
        rf"(?:\bI(?:'ve|\s+have)\s+been|^\W*been)\s+(?:working\s+)?(?:at|with)\s+{_PROPER}{tenure}", s
    ):
        yield "employer", m.group(1).rstrip(",."), m.start()
    for m in _each(r"\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|officially\s+)?retired\b(?!\s+(?:my|the|a|an|it|that|this|his|her)\b)", s):  # fmt: skip
        yield "job_title", "retired", m.start()  # "I retired in 2020"
    for m in _each(rf"\bI\s+(?:just\s+|recently\s+|finally\s+)?(?:got|was)\s+hired\s+(?:at|by)\s+{_CALLED}{_PROPER}", s):  # fmt: skip
        yield "employer", m.group(1).rstrip(",."), m.start()
    for m in _each(
        r"\bI\s+(?:run|own)\s+(?:my\s+own|a|an)\s+(?:small\s+)?([a-z][\w-]*)", s
    ):  # "I run my own bakery"
        if m.group(1).lower() not in ("business", "company", "car", "house", "home", "dog", "cat", "bike"):
            yield "job_title", f"{m.group(1).lower()} owner", m.start()
    # "Quit Barclays last spring": the subject left out
    former += r"|^\W*(?:just\s+|finally\s+|recently\s+)?(?:quit(?:\s+my\s+job\s+at)?|left\s+my\s+job\s+at)"
    for m in re.finditer(rf"(?:{former})\s+{_PROPER}", s, re.I):
        negated = "don't" in m.group(0).lower() or "do not" in m.group(0).lower()
        if negated and not re.search(r"\b(?:anymore|any\s+more|no\s+more)\b", s[m.end() :], re.I):
            continue
        yield "former_employer", m.group(1).rstrip(",."), m.start()
    for m in _each(
        rf"\b(?:graduated\s+from|student\s+at|I\s+study\s+at|I\s+go\s+to\s+school\s+at)\s+{_PROPER}", s
    ):
        yield "school", m.group(1).rstrip(",."), m.start()
    for m in _each(r"\b(?:I\s+(?:study|am\s+studying|'m\s+studying|major\s+in|'m\s+majoring\s+in)|studying)\s+(?!at\b|for\b|hard\b|every\b|a\s+lot\b)([a-z][\w ]*)", s):  # fmt: skip
        if items := _items(m.group(1)):
            yield "studies", items[0], m.start()
            # "I'm studying computer science at Stanford"
            # (read from the sentence: the value stopped at "King's College London"'s apostrophe)
            if school := re.match(
                rf"\s*{re.escape(items[0])}\s+at\s+{_CALLED}{_PROPER}", s[m.start(1) :], re.I
            ):
                yield "school", school.group(1).rstrip(",."), m.start()


# Capitalised words that start a sentence without naming anyone ("Yesterday, my dog …").
_NOT_NAMES = frozenset({"yesterday", "today", "tomorrow", "tonight", "honestly", "also", "anyway", "well", "so",
                        "sadly", "luckily", "unfortunately", "basically", "actually", "and", "but", "oh", "yes", "no",
                        "ok", "okay", "hi", "hey", "hello", "thanks", "sorry", "now", "then", "lately", "recently"})  # fmt: skip


def _named_before(before: str, after: str) -> str | None:
    """The name set beside a kin word or pet as an apposition: "Spike, my bearded dragon, has …", "Sipho (my
    boyfriend) says …" -> the name; None if there is none."""
    if not re.match(r"\s*[,)]", after):
        return None
    said = re.search(r"(?:^|[\s(\"'])(?-i:([A-Z][a-zà-ÿ'-]+))\s*(?:,|\()\s*$", before)
    if said and said.group(1).lower() not in _NOT_NAMES:
        return said.group(1)
    return None


# Capitalised words before "born"/"based" that are no place ("Been based in Leeds", "We were born …").
_NOT_PLACE_WORDS = frozenset({"been", "was", "were", "is", "am", "are", "we", "they", "he", "she", "you", "just", "also",
                              "currently", "originally", "proudly", "mostly", "still", "both", "all", "our", "my"})  # fmt: skip


def _others_named(before: str) -> bool:
    """Someone other than the user is named in ``before`` ("she", "my sister", "our friends")."""
    return bool(re.search(rf"\b(?:he|she|they|you|his|her|their|him|them)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{_KIN}|friends?|"
                          rf"boss|colleagues?|neighbou?rs?|flatmates?|roommates?|mates?)\b", before, re.I))  # fmt: skip


def _named_later(rest: str) -> str | None:
    """The name given after a time or place: "(a kitten) on Sunday, her name is Mochi" -> Mochi."""
    gap = r"(?:\s+(?:on|in|at|last|this|yesterday|today|from|over|a\s+few|\w+\s+(?:days|weeks|months)\s+ago)\b[^,.;!?]{0,30}?)?"
    said = re.match(rf"{gap}\s*,?\s*(?:and\s+)?(?:(?:her|his|its|their)\s+name(?:'s|\s+is)|(?:she|he|it)(?:'s|\s+is)\s+(?:called|named))\s+{_NAME}",
                    rest, re.I)  # fmt: skip
    return said.group(1) if said else None


@rule
def family(s: str) -> Emit:
    words = _KIN
    adjective = r"(?:\d{1,2}[\s-]?(?:year|yr|month)s?[\s-]old\s+)?(?:(?:younger|older|little|big|baby|twin|first|second|third|eldest|oldest|youngest|new|late|step|identical|adopted|teenage|grown-up|adult)\s+)?"  # fmt: skip
    named = rf"(?:'s\s+(?:name\s+is|called|named)\s+{_NAME}|,?\s+(?:is\s+(?:called|named)\s+|named\s+|called\s+|is\s+(?={_A_NAME}\s*(?:[,.!;]|$|\band\b)))?{_NAME})?"  # fmt: skip
    for m in _each(rf"\b(?:my|our)\s+{adjective}({words})\b{named}", s):
        if re.search(r"\bexpecting\s+$", s[: m.start()], re.I):  # "expecting my first baby" is a plan, below
            continue
        if re.search(
            r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|both|all)\s+of\s+$", s[: m.start()], re.I
        ):
            continue  # "all 5 of my grandkids": counted below
        called = m.group(2) or m.group(3) or _named_before(s[: m.start()], s[m.end() :])
        yield (*_family(m.group(1), None, called), m.start())
    # "all 5 of my grandkids", "both of my brothers": the user's, counted
    for m in () if " of " not in s else _each(rf"\b(?:all\s+)?(\d{{1,2}}|two|three|four|five|six|seven|eight|nine|ten|both)\s+of\s+(?:my|our)\s+{adjective}({words})\b", s):  # fmt: skip
        yield (*_family(m.group(2), None if m.group(1).lower() == "both" else m.group(1)), m.start())
    # "my two boys", "our three girls": children, counted
    for m in () if not re.search(r"boys|girls", s, re.I) else _each(rf"\b(?:my|our)\s+({_NUM})\s+(?:little\s+|young\s+|teenage\s+)?(boys|girls)\b", s):  # fmt: skip
        if m.group(1).lower() not in ("a", "an", "one"):
            yield (*_family(m.group(2), m.group(1)), m.start())
    # "me and the wife", "the kids and I": "the" for the user's own family when the user is in the same breath
    for m in () if " and " not in s.lower() else _each(rf"\b(?:me|I)\s+and\s+the\s+({words})\b|\bthe\s+({words})\s+and\s+(?:I|me)\b", s):  # fmt: skip
        yield (*_family(m.group(1) or m.group(2)), m.start())
    for m in _each(rf"\b(?:I|we){_HAVE}\s+({_NUM})\s+{adjective}({words})\b{named}", s):  # fmt: skip
        one = m.group(1).lower() in ("a", "an", "one")
        called = m.group(3) or m.group(4) or (_named_later(s[m.end() :]) if one else None)
        yield (*_family(m.group(2), m.group(1), called), m.start())
        # "an older brother and a younger sister": the list goes on
        rest = s[m.end() :]
        while more := re.match(rf"\s*(?:,\s*(?:and\s+)?|\s+and\s+)({_NUM})\s+{adjective}({words})\b", rest, re.I):  # fmt: skip
            yield (*_family(more.group(2), more.group(1)), m.start())
            rest = rest[more.end() :]
    for m in _each(rf"\b(?:(?:I|we)(?:{_HAVE}|\s+just\s+adopted|\s+adopted)|with|(?:with\s+)?(?:my|our))\s+({_NUM})\s+(?:[\w-]+\s+){{0,2}}?({PETS}|puppies|bunnies|ponies)s?\b{named}", s):  # fmt: skip
        n = NUMBERS.get(m.group(1).lower()) if not m.group(1).isdigit() else int(m.group(1))
        kind = _SINGULAR.get(m.group(2).lower(), m.group(2).lower())
        value = f"{n} {_plural(kind)}" if n and n > 1 else kind
        pet = m.group(3) or m.group(4) or (_named_later(s[m.end() :]) if value == kind else None)
        yield "pet", f"{value} {pet}" if pet else value, m.start()
        # "two cats and a parrot": the list goes on
        rest = s[m.end() :]
        while more := re.match(rf"\s*(?:,\s*(?:and\s+)?|\s+and\s+)({_NUM})\s+(?:[\w-]+\s+){{0,2}}?({PETS}|puppies|bunnies|ponies)s?\b{named}", rest, re.I):  # fmt: skip
            n = NUMBERS.get(more.group(1).lower()) if not more.group(1).isdigit() else int(more.group(1))
            kind = _SINGULAR.get(more.group(2).lower(), more.group(2).lower())
            value = f"{n} {_plural(kind)}" if n and n > 1 else kind
            pet = more.group(3) or more.group(4)
            yield "pet", f"{value} {pet}" if pet else value, m.start()
            rest = rest[more.end() :]
    for m in _each(rf"\b(?:my|our)\s+({PETS})\b{named}", s):
        pet = m.group(2) or m.group(3) or _named_before(s[: m.start()], s[m.end() :])
        yield "pet", f"{m.group(1).lower()} {pet}" if pet else m.group(1).lower(), m.start()


# "a small village near York", "a suburb of Chicago", "the north of England": the named place is the answer.
_SETTLEMENT = (r"(?:(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:village|town|city|suburb|neighbou?rhood|area|part|corner|"
               r"hamlet|county|region|province|state|island|place|spot|flat|apartment|house|farm|cottage|valley)\s+"
               r"(?:(?:just\s+)?(?:near|outside(?:\s+of)?|in|of|close\s+to|not\s+far\s+from|on\s+the\s+outskirts\s+of|"
               r"(?:north|south|east|west)\s+of)|(?:an\s+hour|\w+\s+miles|\w+\s+minutes)\s+from)\s+|"
               r"the\s+(?:north|south|east|west|north-east|north-west|south-east|south-west|outskirts|suburbs|"
               r"middle|centre|center|heart)\s+of\s+)?")  # fmt: skip
_MOVED = (r"(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|also\s+|since\s+)?(?:moved|relocated|emigrated)"
          r"(?:\s+(?:back|over|out|down|up|home|across|abroad|here|there|permanently)){0,2}")  # fmt: skip
# "i live in leeds now, moved up from london": the subject left out (checked against _SAME_SUBJECT when not first)
_MOVED_ELIDED = (r"(?:^\W*|,\s*|\band\s+)(?:just\s+|recently\s+|then\s+|finally\s+)?(?:moved|relocated|emigrated)"
                 r"(?:\s+(?:back|over|out|down|up|home|across|abroad|here|there|permanently)){0,2}")  # fmt: skip
# "i grew up in texas but live in oregon now": the second verb's subject is the first's, the user, when no one else
# was named in between.
_SAME_SUBJECT = r"^\W*(?:\w+\s+){0,3}?(?:I|we)\b(?:(?!\b(?:my|his|her|their|our|he|she|they|you)\b)[^.;!?])*?"


def _place(value: str, lower: bool) -> str:
    """A place as said; typed in lower case, up to where its clause, a preposition or a time starts ("oregon now")."""
    if lower:
        value = _PREPOSITION.sub("", _clause(value))
        if (
            when := _PAST_TIME.search(value)
            or _FUTURE_TIME.search(value)
            or re.search(r"\s(?:last|next|this)\b", value)
        ):
            value = value[: when.start()]
    return _clean(value.rstrip(",."))


def _names(text: str) -> list[str]:
    """The capitalised names a list starts with: "Japan, Korea and Vietnam last year" -> Japan, Korea, Vietnam."""
    name = r"(?:the\s+)?[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3}"
    listed = re.match(rf"{name}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){name})*", text)
    if not listed:
        return []
    return [
        _clean(n) for n in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*", listed.group(0)) if n.strip()
    ]


@rule
def places(s: str) -> Emit:
    lower = s == s.lower()
    place = _PLACE_LOWER if lower else _PROPER
    lives = (rf"\bI\s+live\s+(?:just\s+)?(?:near|outside)|\b(?:I\s+live|I'm\s+living|I\s+am\s+living|we\s+live|I'm\s+based|"
             rf"I\s+am\s+based|we're\s+based|I\s+reside|I(?:'ve|\s+have)?\s+settled(?:\s+down)?|{_MOVED}(?:\s+from\s+\S+(?:\s+[A-Z]\S*)*)?)"
             r"\s+(?:to|in)|\b(?:I'm|I\s+am|we're)\s+based\s+out\s+of|\bhome\s+(?:for\s+me\s+)?is|\b(?:my|our)\s+(?:home|house|flat|apartment|place)\s+is\s+in|\bI\s+now\s+live\s+in|"
             r"(?:\band|\bbut)\s+(?:now\s+|currently\s+)?(?:live|reside|am\s+based)\s+in|"
             r"^\W*(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)(?:\s+(?:back|over|out|down|up|home|across))?\s+to")  # fmt: skip
    for m in _each(rf"(?:{lives})\s+{_SETTLEMENT}{place}", s):
        if m.group(0).lower().startswith(("and", "but")) and not re.match(
            _SAME_SUBJECT + r"$", s[: m.start()], re.I
        ):
            continue
        value = _place(m.group(1), lower)
        if value.lower() not in _NOT_PLACES and not re.search(
            r"\b(?:used\s+to|anymore)\b", s[m.start() :], re.I
        ):
            yield "lives_in", value, m.start()
    # "We've been renting a flat in Brooklyn since 2019", "I rent a room in Camden"
    for m in _each(rf"\b(?:I|we)(?:'ve|\s+have)?\s+(?:been\s+)?(?:rent(?:ing)?|shar(?:e|ing)|own(?:ing)?|liv(?:e|ing)\s+in)\s+(?:a|an|our|my)\s+"
                   rf"(?:[\w-]+\s+)?(?:flat|house|apartment|place|home|room|condo|studio|cottage|bungalow|houseboat)\s+(?:in|near)\s+{place}", s):  # fmt: skip
        value = _place(m.group(1), lower)
        holiday = re.search(r"\b(?:every|each|for\s+(?:a|the|two|three|\d+|a\s+few)\s+(?:weeks?|days?|nights?|summer|holidays?|weekend)|on\s+holiday|this\s+(?:summer|winter|spring|autumn)|over\s+)",
                            s[m.end() :], re.I)  # fmt: skip
        if (
            value.lower() not in _NOT_PLACES and not holiday
        ):  # "a cottage in Cornwall every summer" is a holiday
            yield "lives_in", value, m.start()
    # "… before coming back to Sydney", "then moved back to Leeds": where the user came back to is home
    for m in () if " back " not in s.lower() else _each(rf"\b(?:before|then|and\s+then|until|till)\s+(?:coming|moving|came|moved|heading|settling)\s+back\s+(?:home\s+)?to\s+{place}", s):  # fmt: skip
        before = s[: m.start()]
        if re.search(r"\b(?:I|we)\b", before, re.I) and not re.search(
            rf"\b(?:he|she|they|you|his|her|their)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{_KIN}|friends?|boss|neighbou?r|flatmate|roommate)\b",
            before, re.I):  # fmt: skip
            yield "lives_in", _place(m.group(1), lower), m.start()
    for m in _each(rf"\bI\s+call\s+{place}\s+home\b", s):  # "I call Seattle home"
        yield "lives_in", _place(m.group(1), lower), m.start()
    for m in _each(
        rf"^\W*(?:currently\s+|now\s+)?(?:been\s+)?(?:living|based|live|renting)\s+in\s+{_SETTLEMENT}{place}",
        s,
    ):  # "Currently living in X"
        yield "lives_in", _place(m.group(1), lower), m.start()
    for m in _each(rf"\b(?:I|we)(?:'ve|’ve|\s+have)\s+(?:been\s+)?liv(?:ed|ing)\s+in\s+{_PROPER}(?=\s+(?:for|since)\b)", s):  # fmt: skip
        yield "lives_in", m.group(1).rstrip(",."), m.start()
    for m in _each(
        rf"^\W*(?:born\s+and\s+raised\s+in|grew\s+up\s+(?:in|on)|raised\s+in|brought\s+up\s+in|originally\s+from)\s+{_SETTLEMENT}{place}",
        s,
    ):  # "Born and raised in X"
        yield "hometown", _place(m.group(1), lower), m.start()
    # "live in glasgow, originally from belfast": after a comma, when no one else was named before it
    for m in () if "," not in s else _each(rf",\s*(?:but\s+)?(?:born\s+and\s+raised\s+in|grew\s+up\s+in|originally\s+from)\s+{_SETTLEMENT}{place}", s):  # fmt: skip
        if not re.search(rf"\b(?:he|she|they|you|his|her|their)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{_KIN}|friends?|boss|neighbou?r)\b",
                         s[: m.start()], re.I):  # fmt: skip
            yield "hometown", _place(m.group(1), lower), m.start()
    for m in _each(rf"\bI\s+spent\s+(?:a|an|one|two|three|four|five|six|several|a\s+few|\d+)\s+(?:days?|weeks?|months?|years?|summers?)\s+in\s+{_PROPER}", s):  # fmt: skip
        yield "visited", m.group(1).rstrip(",."), m.start()
    grew = (
        r"(?:grew\s+up|was\s+born(?:\s+and\s+(?:raised|bred))?|was\s+raised|was\s+brought\s+up)\s+(?:in|on)"
    )
    hometown = (rf"\bI\s+{grew}|\bI\s+(?:come|hail)\s+from|\bI'm\s+originally\s+from|"
                rf"\bI\s+spent\s+(?:(?:most|all|much)\s+of\s+)?my\s+(?:childhood|youth|early\s+years|formative\s+years|"
                rf"teens|teenage\s+years|school\s+years)\s+in|\bmy\s+(?:home\s*town|birthplace|birth\s+place)\s+is|"
                rf"(?:\band|\bbut)\s+(?:originally\s+)?{grew}")  # fmt: skip
    for m in _each(rf"(?:{hometown})\s+{_SETTLEMENT}{place}", s):
        if m.group(0).lower().startswith(("and", "but")) and not re.match(
            _SAME_SUBJECT + r"$", s[: m.start()], re.I
        ):
            continue
        value = _place(m.group(1), lower)
        if value.lower() not in _NOT_PLACES:
            yield "hometown", value, m.start()
    for m in re.finditer(rf"(?:\bI\s+used\s+to\s+live\s+in|\bI\s+lived\s+in|\bI\s+no\s+longer\s+live\s+in|\b{_MOVED}(?:\s+(?:away\s+)?from|(?<=out)\s+of)|\bI\s+don't\s+live\s+in|"
                         rf"{_MOVED_ELIDED}(?:\s+(?:away\s+)?from|(?<=out)\s+of)|\b{_MOVED}\s+(?:back\s+|over\s+)?to\s+(?-i:(?:[A-Z][\w'-]*\s+){{1,3}})from|\bI\s+spent\s+my\s+(?:twenties|thirties|forties|fifties|20s|30s|40s|50s|"
                         rf"student\s+years|uni\s+years|university\s+years|college\s+years)\s+in)\s+{place}", s, re.I):  # fmt: skip
        if "don't" in m.group(0).lower() and not re.search(r"\b(?:anymore|any\s+more)\b", s[m.end() :], re.I):
            continue
        if re.match(r"\W*(?:,|and\b)", m.group(0)) and not re.match(
            _SAME_SUBJECT + r"$", s[: m.start()], re.I
        ):
            continue  # "my sister lives in Leeds, moved from London": hers
        yield "lived_in", _place(m.group(1), lower), m.start()
    visited = (rf"^\W*(?:also\s+|just\s+|finally\s+)?(?:went|travel(?:l)?ed|flew)\s+to\s+{_PROPER}|\bI(?:'ve|’ve|\s+have)\s+(?:been|travel(?:l)?ed)\s+to\s+{_PROPER}|\b(?:I|we)(?:'ve|\s+have)?\s+(?:also\s+)?(?:visited|travel(?:l)?ed\s+to|went\s+to)\s+{_PROPER}|"
               rf"(?:^\W*|\b(?:I|we)(?:'ve|\s+have)?\s+)(?:just\s+)?(?:got|came|flew|am|'m|are|'re)\s+back\s+from\s+(?:{_HOW_MANY}|a\s+fortnight)\s+(?:days?|weeks?|months?|nights?)?\s*(?:in|on|around|travelling|backpacking)\s+{_PROPER}|"
               rf"\bI(?:'ve|\s+have)?\s+(?:backpacked|travel(?:l)?ed|toured|cycled|hiked|road-tripped)\s+(?:around|through|across|all\s+over)\s+{_PROPER}")  # fmt: skip
    for m in _each(visited, s):
        for name in _names(s[m.start(m.lastindex or 1) :]):  # "I've been to Japan, Korea and Vietnam"
            yield "visited", name, m.start()
    # "I've lived in Berlin, Paris and Madrid": places the user has lived (with "for"/"since": lives, above).
    for m in _each(rf"\bI(?:'ve|\s+have)\s+(?:also\s+)?lived\s+in\s+{_PROPER}(?!.*\b(?:for|since)\b)", s):
        for name in _names(s[m.start(1) :]):
            yield "lived_in", name, m.start()
    # The fifth pass. "I've travelled a lot: Kenya, Peru and Chile": a list of two or more names explaining the travel
    for m in () if not re.search(r"travel", s, re.I) else _each(r"(?:\b(?:I|we)(?:'ve|\s+have)?(?:\s+been)?\s+(?:\w+\s+){0,4}?|^\W*been\s+(?:\w+\s+){0,4}?)travel(?:l?ed|l?ing)?\b[^-–—:.;!?]*?\s[-–—:]\s*(?=[A-Z])|(?:\b(?:I|we)(?:'ve|\s+have)?\s+|^\W*)travel(?:l?ed|l?ing)?\b[^-–—.;!?]*?:\s*(?=[A-Z])", s):  # fmt: skip
        if len(names := _names(s[m.end() :])) >= 2:
            for name in names:
                yield "visited", name, m.start()
    # "we left Perth for Kuala Lumpur", "I swapped London for Lisbon": the first was home, the second
    # is ("I left X for Y" stays a former employer: one leaves a job for another as often as a city).
    for m in () if " for " not in s else _each(rf"\b(?:we(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?left|(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:swapped|traded|ditched))\s+{_PROPER}\s+for\s+{_PROPER}", s):  # fmt: skip
        yield "lived_in", m.group(1).rstrip(",."), m.start()
        yield "lives_in", m.group(2).rstrip(",."), m.start()
    # "Kerala born, Toronto based since 2012": a place before "born"/"raised" is home town, before "based" home now;
    # only where a clause starts ("a London-based company" is no one's)
    for m in () if not re.search(r"\b(?:born|based|raised|bred)\b", s) else re.finditer(r"(?:^\W*|,\s*)(?-i:([A-Z][a-zà-ÿ][\w.]*(?:\s+[A-Z][\w.]*){0,2}))[\s-](born|raised|bred|based)\b(?!\s+(?:and\b(?!\s+(?:bred|raised))|in|on|at|company|business|firm|startup|team|band|artist|charity|brand|agency)\b)", s):  # fmt: skip
        if m.group(1).lower() in _NOT_NAMES | _NOT_PLACE_WORDS or _others_named(s[: m.start()]):
            continue
        yield ("lives_in" if m.group(2) == "based" else "hometown"), m.group(1), m.start()
    # "Hong Kong was home for most of my thirties", "Lisbon is home now": a place called home
    for m in re.finditer(rf"^\W*{_PROPER}\s+(was|is|has\s+been|'s)\s+(?:my\s+|our\s+)?home\b(?=\s*(?:$|[,.!;]|(?:now|these\s+days|for\s+(?:me|us|(?:most|much|all|part)\s+of\s+my|my|\w+\s+years|a\s+(?:few|couple|decade)))\b))", s):  # fmt: skip
        yield ("lived_in" if m.group(2) == "was" else "lives_in"), m.group(1).rstrip(",."), m.start()
    # "I stay in Bangalore with my parents": to stay in a place, said of no visit or time, is to live there
    for m in () if "stay in" not in s.lower() else _each(rf"\b(?:I|we)\s+(?:still\s+|currently\s+|now\s+)?stay\s+in\s+{_SETTLEMENT}{_PROPER}", s):  # fmt: skip
        if not re.search(r"\b(?:when|whenever|while|during|every|each|hotel|hostel|airbnb|holiday|vacation|trip|visit\w*|night|weekend|until|till)\b", s, re.I) and not (_PAST_TIME.search(s) or _FUTURE_TIME.search(s)):  # fmt: skip
            yield "lives_in", m.group(1).rstrip(",."), m.start()


@rule
def dates(s: str) -> Emit:
    low = s.lower()
    for m in _each(r"\bI(?:'m|\s+am)\s+(\d{1,3})\s+years?\s+old\b|\bI\s+(?:just\s+)?turned\s+(\d{1,3})\b", s):
        yield "age", m.group(1) or m.group(2), m.start()
    for m in re.finditer(r"^\W*(\d{2,3})\s+today\b", s):  # "50 today!!": a birthday, said as the age
        yield "age", m.group(1), m.start()
    # a year, not a place; "born in Lahore in 1979" has both
    for m in _each(
        rf"\bI\s+was\s+born\s+in\s+(?-i:(?:[A-Z][\w'-]*,?\s+){{1,3}}in\s+)?((?:(?:{_MONTH})\s+)?\d{{4}})\b", s
    ):
        yield "birthday", m.group(1), m.start()
    for m in _each(r"\b(?:my\s+birthday(?:\s+is|'s)(?:\s+on)?|I\s+was\s+born\s+on)\s+(?:the\s+)?(.+)", s):
        value = _clean(_clause(m.group(1)))
        if value and not re.match(
            r"(?:next|this|last|tomorrow|today|yesterday|soon|coming\s+up|in\s+\w+\s+\w+)\b", value, re.I
        ):
            yield "birthday", value, m.start()  # "my birthday is next month" says when it comes, not the date
    # "It was my 60th birthday last weekend": an age now, unless the birthday is still to come
    for m in () if "day" not in low else _each(r"\b(?:it\s+was|it's|it\s+is|today\s+is|today\s+was|yesterday\s+was|I\s+(?:just\s+)?(?:had|celebrated))\s+"
                   r"my\s+(\d{1,3})(?:st|nd|rd|th)\s+(?:birthday|bday)\b", s):  # fmt: skip
        if not _FUTURE_TIME.search(_clause(s[m.end() :])):
            yield "age", m.group(1), m.start()
    # "It was my first day at the new job yesterday": a dated occasion of the user's
    for m in () if " was my " not in low else _each(r"\b(?:it\s+was|that\s+was|(yesterday|last\s+(?:week|month|year|night|weekend|\w+day))\s+was)\s+(my\s+(?:\d{1,3}(?:st|nd|rd|th)\s+|first\s+|last\s+|big\s+)?"
                  r"(?:birthday|bday|anniversary|wedding|graduation|day|week|exam|interview|date|gig|race|marathon|match|game|"
                  r"party|retirement|leaving\s+do|hen\s+do|stag\s+do|baby\s+shower|operation|surgery)\b.*)", s):  # fmt: skip
        if m.group(1):  # "yesterday was my 25th birthday"
            yield "event", f"{_clean(_clause(m.group(2)))} {m.group(1).lower()}", m.start()
        elif when := _PAST_TIME.search(_clause(m.group(2))):
            yield "event", _clean(m.group(2)[: when.end()]), m.start()
    # "Engaged to my high school sweetheart, Ananya": the name after the description is the partner's
    for m in () if "to my" not in low else _each(rf"\b(?:I'm|I\s+am|I\s+got|we\s+got|I've\s+been|I\s+have\s+been)\s+(?:\w+\s+)?(?:engaged|married)\s+to\s+my\s+(?:[\w-]+\s+){{0,3}}?(?:sweetheart|partner|boyfriend|girlfriend|fianc[ée]e?|love|best\s+friend|other\s+half|soulmate|person)\s*,\s*{_NAME}", s):  # fmt: skip
        yield "partner", m.group(1), m.start()
    for m in _each(r"\bI\s+(?:just\s+)?got\s+(married|engaged|divorced)\b", s):
        yield "marital_status", m.group(1).lower(), m.start()
    # "we've been married twelve years", "me and my husband Kofi have been married …": the user is one of the two
    couple = (rf"\bwe(?:'ve|\s+have)\s+been|\bwe're|\bwe\s+are|(?:\bme|\bI)\s+and\s+my\s+(?:{'|'.join(PARTNERS)})(?:\s+{_A_NAME})?\s+(?:have|'ve)\s+been|"
              rf"\bmy\s+(?:{'|'.join(PARTNERS)})(?:\s+{_A_NAME})?\s+and\s+I\s+(?:have|'ve)\s+been|\bmy\s+(?:{'|'.join(PARTNERS)})(?:\s+{_A_NAME})?\s+and\s+I\s+are")  # fmt: skip
    for m in () if "married" not in low and "engaged" not in low else _each(rf"(?:{couple})\s+(?:(?:happily|now|officially|just)\s+)?(married|engaged)\b(?!\s+(?:twice|once|before|\w+\s+times)\b)", s):  # fmt: skip
        yield "marital_status", m.group(1).lower(), m.start()


_PAST_VERB = re.compile(
    r"(?:got|ran|broke|bought|had|went|took|began|won|lost|met|left|made|turned|became|saw|flew|gave|sold|wrote|"
    r"quit|found|built|drove|fell|hurt|spent|sat|passed|did|paid|sold|told|kept|felt|heard|held|brought|caught|"
    r"taught|fought|swam|sang|drank|ate|wore|threw|grew|knew|forgot|hit|cut|put|won|came|moved|\w{2,}ed)$", re.I)  # fmt: skip
_NOT_EVENTS = frozenset({"used", "tired", "need", "interested", "born", "based", "allergic", "married", "retired",
                         "employed", "supposed", "excited", "worried", "bored", "scared", "located", "named",
                         "called"})  # fmt: skip


_ACTIVE_VERBS = frozenset({"retired", "married"})


@rule
def event(s: str) -> Emit:
    """A past statement with a date: "I broke my leg last winter", "Yesterday I adopted a puppy"."""
    subject = r"\b(?:I|we)\s+(?:(?:just|finally|recently|also|officially|actually)\s+)?(?:was\s+|were\s+)?"
    # "… and had my first kid in 2017" (the same subject), "Just got back from Japan yesterday" (none said)
    elided = r"\band\s+(?:then\s+|later\s+|also\s+)?(?!(?:I|we)\b)|^\W*(?:just\s+|finally\s+|recently\s+)?"
    for m in _each(rf"(?:{subject}|{elided})(\w+)\b", s):
        said = m.group(0).lower().lstrip(" \t\"'(")
        if said.startswith("and") and not re.match(_SAME_SUBJECT + r"$", s[: m.start()], re.I):
            continue
        verb = m.group(1)
        # "I retired in 2020" and "we married in June" are events; "I was retired" and "I was married" are states.
        active = verb.lower() in _ACTIVE_VERBS and not re.search(r"\b(?:was|were)\s+$", s[: m.start(1)], re.I)
        if (verb.lower() in _NOT_EVENTS and not active) or not _PAST_VERB.match(verb):
            continue
        phrase = s[m.start(1) :]
        if re.match(
            r"(?:told|asked|said|mentioned|showed|sent|gave|explained|wrote)\s+(?:you|u|to\s+you)\b",
            phrase,
            re.I,
        ):
            continue  # "I told you that yesterday": talk about the conversation
        when = _PAST_TIME.search(phrase)
        if when:
            yield "event", _clean(phrase[: when.end()]), m.start()
            continue
        when = _PAST_TIME.search(s[: m.start()])
        if when and not said.startswith(
            "and"
        ):  # "… in 2020 and started working at Intel": that time was the first's
            yield "event", f"{_clean(_clause(phrase))} {when.group(0).lower()}", m.start()


# …but a few of those verbs with a future time and someone or somewhere else as the object are a plan: "I'm going to
# ask my boss for a raise on Monday", "I've decided to go back to uni next year" (not "ask you tomorrow", "see how
# it goes tomorrow", "go ahead tonight").
_TALK_PLANNABLE = frozenset({"ask", "tell", "go", "leave", "give", "send", "show", "write", "see", "drop"})
_TALK_OBJECT = re.compile(
    r"\w+\s+(?:you|u|ya|it|that|this|them|ahead|now|how|what|if|whether|with|through|over|by|"
    r"for|on|about|off|anyway)\b",
    re.I,
)
# The present for what is timetabled ("Tomorrow I start my new job", "we fly to Rome on Friday"), not a habit.
_TIMETABLED = re.compile(
    r"\b(?:I|we)\s+(start|begin|fly|leave|move|head|travel|graduate|retire|return|finish|"
    r"go\s+back|set\s+off|drive|sail|depart|arrive|get\s+married)\b(.+)",
    re.I,
)
_HABIT = re.compile(
    r"\b(?:usually|always|often|normally|generally|sometimes|never|every|each|most|typically)\b", re.I
)
# "we're", and a couple or group the user is one of: "me and the wife are", "my husband and I are".
_WE_ARE = r"(?:we're|we\s+are|(?:me|I)\s+and\s+(?:my|the)\s+[\w-]+\s+are|(?:my|the)\s+[\w-]+\s+and\s+I\s+are)"


@rule
def plans(s: str) -> Emit:
    intent = (r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:planning|hoping|aiming|intending)\s+(?:on\s+|to\s+)|"
              r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:going\s+to|gonna)\s+|"
              r"\b(?:I|we)\s+(?:plan|want|hope|intend|aim|mean)\s+to\s+|\b(?:I|we)\s+wanna\s+|\bmy\s+(?:goal|plan|dream|aim|resolution)(?:\s+for\s+(?:the\s+)?(?:next|this|the\s+coming)\s+\w+)?\s+is\s+to\s+|"
              r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:finally\s+)?(?:decided|resolved|committed)\s+to\s+|"
              r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:determined|looking|preparing|getting\s+ready|about)\s+to\s+|"
              r"\b(?:I|we)(?:\s+will|'ll|’ll)\s+(?!be\s+(?:honest|brief|quick|back)\b)|"
              r"^\W*(?:gonna|planning\s+(?:to|on)|hoping\s+to|going\s+to)\s+")  # fmt: skip
    found = False
    for m in _each(rf"(?:{intent})(.+)", s):
        phrase = m.group(1)
        first = phrase.split()[0].lower() if phrase.split() else ""
        talk = first in _TALK and not (first == "be" and re.match(r"be\s+(?:in|at|on|\w+ing|\d+)\b", phrase))
        if (
            talk
            and first in _TALK_PLANNABLE
            and _FUTURE_TIME.search(phrase)
            and not _TALK_OBJECT.match(phrase)
        ):
            talk = False
        if first == "start" and not re.match(
            r"start(?:\s+(?:by|with|off|again|over|from|here|there|now)\b|\W*$)", phrase, re.I
        ):
            talk = False  # "start a new job at Meta" is a plan; "start by asking" is talk
        if talk:
            continue
        if _PAST_TIME.search(phrase) and not _FUTURE_TIME.search(phrase):
            continue  # "I decided to quit my job last week" was a plan; the event rule has it
        if re.match(
            r"\w+(?:\s+(?:up|out|off|down))?\s+(?:it|that|this|whatever\S*|anything|everything)\s*(?:[,.!;]|$)|"
            r"\w+\s+(?:whatever|anything|everything)\b",
            _clause(phrase),
            re.I,
        ):
            continue  # "I'm going to lose it", "I'll eat whatever's put in front of me": an idiom or a habit, no plan
        found = True
        yield "plan", _with_time(phrase, s[: m.start(1)]), m.start()  # "My plan for next year is to …"
    for m in _each(rf"\b(?:I'm|I\s+am|{_WE_ARE})\s+(?!going\s+(?!on\b|away\b|abroad\b|home\b|back\b|out\b|\w+ing\b)|planning\b|hoping\b|thinking\b|living\b|looking\b|trying\b|feeling\b|doing\b(?!\s+(?:the|a|an|my|our)\s+(?!(?:lot|bit|little|much|good|great|fine|better|ok|okay|job|best)\b))|working\b|studying\b|taking\b(?!\s+(?:my|our|the|his|her)\s+(?:[\w-]+\s+){{0,2}}to\b))(\w+ing)\b", s):  # fmt: skip
        phrase = s[m.start(1) :]
        # a time said before counts only in the same clause ("Broke my wrist in February so I'm typing …")
        before = re.split(r"\b(?:so|but|and|because|since)\b|;", s[: m.start()])[-1]
        if not found and (_FUTURE_TIME.search(phrase) or _FUTURE_TIME.search(before)):
            yield "plan", _with_time(phrase, before), m.start()
    # "I've booked a trip to Morocco for April", "Going to Japan in the autumn!" (the subject left out): a plan when
    # a future time is said.
    for m in _each(r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|already\s+)?(?:booked|scheduled|arranged|organi[sz]ed)\s+(.+)"
                   r"|^\W*(?!(?:looking|thinking|wondering|hoping|trying|feeling|being|getting\s+back|loving|liking|enjoying|hating|"
                   r"working|doing|having|struggling|dealing|waiting)\b)([a-z]+ing\s+.+)", s):  # fmt: skip
        phrase = m.group(1) or m.group(2)
        when = _FUTURE_TIME.search(phrase)
        if not found and when and not re.match(r"this\s+(?!coming\b)", when.group(0), re.I):
            yield "plan", _clean(phrase[: when.end()]), m.start()
    for m in _each(
        r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:planning|organi[sz]ing|booking)\s+(?:a|an|our|my)\s+(.+)", s
    ):
        if not found:  # "I'm planning a trip to Vietnam"
            yield "plan", _with_time(m.group(1), s[: m.start()]), m.start()
    for m in _each(rf"\b(?:I'm|I\s+am|{_WE_ARE})\s+(off\s+to\s+.+)", s):  # "I'm off to Spain next week"
        if not found and (_FUTURE_TIME.search(m.group(1)) or _FUTURE_TIME.search(s[: m.start()])):
            yield "plan", _with_time(re.sub(r"^off\s+to\s+", "go to ", m.group(1)), s[: m.start()]), m.start()
    for m in _each(r"\bI(?:\s+have|'ve\s+got|\s+have\s+got|\s+got)\s+(?:a|an)\s+((?:[\w-]+\s+){0,2}(?:appointment|interview|exam|meeting|flight|surgery|operation|check-?up|wedding|test)\b.*)", s):  # fmt: skip
        if _FUTURE_TIME.search(m.group(1)) or _FUTURE_TIME.search(s[: m.start()]):
            yield "plan", _with_time(m.group(1), s[: m.start()]), m.start()
    # "wedding's next june", "My surgery is on Friday": a booked occasion of the user's and its time
    occasion = (r"(?:birthday|anniversary|wedding|surgery|operation|interview|exam|exams|flight|move|holiday|vacation|trip|due\s+date|graduation|"
                r"appointment|honeymoon|party|procedure|scan|test|driving\s+test|court\s+date|race|marathon|gig)")  # fmt: skip
    for m in (
        ()
        if not re.search(occasion, s, re.I)
        else _each(
            rf"(?:^\W*|(?<=,)\s*(?:and\s+)?|\band\s+)(?:(?:my|our|the)\s+)?((?:[\w-]+\s+)?{occasion})(?:'s|\s+is|\s+are)\s+(?:(?:on|in|at)\s+)?(?=\S)",
            s,
        )
    ):
        # after a clause ("Engaged to Ana, and the wedding is next summer"): the user's, when no one else was named
        if m.start() and (
            not re.search(r"\b(?:I|I'm|we|we're|my|our)\b", s[: m.start()], re.I)
            or _others_named(s[: m.start()])
        ):
            continue
        if when := _FUTURE_TIME.match(
            s, m.end() - 3 if s[m.end() - 3 : m.end()].lower() in ("on ", "in ") else m.end()
        ):
            # a yearly day said with its date is that date ("My birthday is on March 3rd"), not a plan
            yearly = re.search(r"(?:birthday|anniversary)$", m.group(1), re.I)
            if not yearly or re.match(r"next|this|tomorrow|tonight|later|in\s", when.group(0), re.I):
                yield "plan", f"{m.group(1)} {when.group(0)}", m.start()
    # "I'm booked in for laser eye surgery on the 22nd": what is booked, with its time
    for m in (
        ()
        if "booked" not in s.lower()
        else _each(
            r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:all\s+)?booked\s+(?:in\s+)?(?:for|on(?:to)?)\s+(.+)", s
        )
    ):
        phrase = m.group(1)
        if not found and (_FUTURE_TIME.search(phrase) or _FUTURE_TIME.search(s[: m.start()])):
            yield "plan", _with_time(phrase, s[: m.start()]), m.start()
    if not found and _FUTURE_TIME.search(s) and not _HABIT.search(s):
        for m in _TIMETABLED.finditer(s):
            if not re.search(
                r"\b(?:will|'ll|to|can|can't|cannot|don't|do|did|didn't|must)\s*$", s[: m.start()], re.I
            ):
                yield "plan", _with_time(s[m.start(1) : m.end()], s[: m.start()]), m.start()
    for m in _each(r"\bI\s+(?:need|have)\s+to\s+(.+)", s):  # a chore with a date is a plan
        if _FUTURE_TIME.search(m.group(1)):
            yield "plan", _clean(_clause(m.group(1))), m.start()
    # "I'm saving for a deposit", "… but saving to buy somewhere outside London" (the subject left out)
    for m in (
        ()
        if "saving" not in s.lower()
        else _each(
            r"(?:\b(?:I'm|I\s+am|we're)\s+|(?:^\W*|\bbut\s+|\band\s+)(?:currently\s+|also\s+)?)saving\s+(?:up\s+)?(?:for|to)\s+(.+)",
            s,
        )
    ):
        yield "plan", _clean(_clause(m.group(1))), m.start()


def _with_time(phrase: str, before: str) -> str:
    """The plan's words, with a time said before it ("Next week I'm flying to…") put at the end."""
    value = _clean(re.sub(r"\s+(?:for\s+sure|hopefully|definitely)$", "", _clause(phrase)))
    value = re.sub(r"^(?:finally|actually|definitely|hopefully|probably)\s+", "", value, flags=re.I)
    when = _FUTURE_TIME.search(before)
    return f"{value} {when.group(0).lower()}" if when else value


# --------------------------------------------------------------------------------------------- sentences
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def states_nothing(sentence: str) -> bool:
    """A question, a condition, a hedge or a wish: no fact about the user, whatever its words.

    >>> states_nothing("Should I apply to work at Google?"), states_nothing("I'd love to work at NASA someday")
    (True, True)
    """
    words = re.findall(r"[\w'’]+", sentence.lower().replace("’", "'"))
    when_clause = (
        words[:2] in (["when", "i"], ["when", "we"]) and len(words) > 2 and words[2] in ("was", "were")
    )
    the_thing = bool(words) and words[0] == "what" and re.match(_THE_THING, sentence.lstrip(" \t\"'("), re.I)
    if (
        not words
        or sentence.rstrip().endswith("?")
        or (words[0] in _QUESTION_START and not (when_clause or the_thing))
    ):
        return True
    # "wish me luck" is no wish of the user's
    return bool(HEDGES.intersection(words)) and not (
        HEDGES.intersection(words) == {"wish"} and re.search(r"\bwish\s+me\s+luck\b", sentence, re.I)
    )


# A question asked after a statement, in the same sentence: ", any tips on colours?", ", what do you think?"
_ASKED_AFTER = re.compile(r",\s*(?:so\s+|but\s+)?(?:any|what|how|where|which|who|when|why|can|could|do|does|should|would|will|is|are|"
                          r"thoughts|ideas|suggestions|recommendations|tips|advice|anyone|anybody)\b[^,]*\?+\s*$", re.I)  # fmt: skip


_SYMBOLS_AFTER = re.compile(r"[\s\u2600-\u27bf\ufe0f\u200d\U0001f000-\U0001faff]+$")


# ----------------------------------------------------------------------------------------- normalising
# The fifth pass reads a sentence as a person types it only after putting it in the words the rules know: one
# change here reaches every rule at once (docs/extraction.md, "Normalising before matching").
_EMOJI = re.compile(r"[\u2600-\u27bf\ufe0f\u200d\U0001f000-\U0001faff]+")
# Discourse fillers that carry nothing: at the start ("ok so", "tbh", "reckon", "sorry,") and anywhere ("lol").
_LEADING_FILLER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|well|honestly|tbh|tbf|lol|lmao|haha+|ha|um+|uh+|erm+|anyway|anyways|fwiw|ngl|"
    r"i\s+mean|(?:i\s+)?reckon|(?:i\s+)?guess\s+what|to\s+be\s+honest|fun\s+fact|sorry|btw|fyi|ps|update|edit)\b[\s,:;-]*)+",
    re.I,
)  # fmt: skip
_INLINE_FILLER = re.compile(
    r",?\s+(?:lol|lmao|rofl|haha+|hehe+|tbh|tbf|ngl|imo|imho|fwiw|honestly)\b(?=\s*(?:[,.!?;]|$)|\s+\w)", re.I
)
# Casual spellings and contractions typed without their apostrophe: "im", "ive", "dont", "cant", "u", "yrs", "34yo".
_CASUAL = {
    "im": "I'm", "ive": "I've", "dont": "don't", "cant": "can't", "didnt": "didn't", "doesnt": "doesn't",
    "isnt": "isn't", "wasnt": "wasn't", "havent": "haven't", "hasnt": "hasn't", "wont": "won't", "arent": "aren't",
    "u": "you", "ur": "your", "bc": "because", "cuz": "because", "coz": "because", "cos": "because",
    "yrs": "years", "yr": "year", "mths": "months", "mos": "months", "wks": "weeks", "w/": "with", "b/c": "because",
    "bday": "birthday", "hubby": "husband", "bf": "boyfriend", "gf": "girlfriend",
}  # fmt: skip
_CASUAL_WORD = re.compile(r"(?<![\w'/-])(" + "|".join(re.escape(w) for w in _CASUAL) + r")(?![\w'/-])", re.I)
_YEARS_OLD = re.compile(r"\b(\d{1,3})\s*(?:yo|y/o|y\.o\.?|yrs?\s+old|years?[\s-]old)\b", re.I)
# "I'm the only Aussie who can't stand X": what the relative clause says, it says of the user.
_FIRST_PERSON = {"doesn't": "don't", "does": "do", "has": "have", "hasn't": "haven't", "is": "am", "isn't": "am not"}  # fmt: skip
_THE_ONE_WHO = re.compile(
    r"\bI'm\s+(?:probably\s+)?the\s+(?:only|one)\s+(?:[\w-]+\s+){0,3}?(?:who|that)\s+([\w']+)", re.I
)


def _first_person(verb: str) -> str:
    """The verb of "… who hates X" as the user says it: "hates" -> "hate", "doesn't" -> "don't", "can't" stays."""
    low = verb.lower()
    if low in _FIRST_PERSON:
        return _FIRST_PERSON[low]
    if re.search(r"(?:ch|sh|ss|x|z|o)es$", low):
        return verb[:-2]
    if re.search(r"[^su]s$", low):
        return verb[:-1]
    return verb


def _casual(match: re.Match[str]) -> str:
    word = match.group(1)
    said = _CASUAL[word.lower()]
    if word.lower() in ("im", "ive") and word[0] == "i":
        return said.lower() if said.startswith("I") else said  # "im" in a lower-case message stays lower case
    return said


def normalise(sentence: str) -> str:
    """``sentence`` in the words the rules know: no emoji or filler, casual spellings and contractions spelled out.

    >>> normalise("ok so im a 34 yo mechanic lol 🔧"), normalise("reckon I'm the only Aussie who cant stand Vegemite")
    ("i'm a 34 year old mechanic", "I can't stand Vegemite")
    """
    s = _EMOJI.sub(" ", sentence) if not sentence.isascii() else sentence
    s = _LEADING_FILLER.sub("", s)
    if _ELIDED_STATE.match(s):  # "allergic to mustard, pls check", "Engaged to my sweetheart": "I'm" left out
        s = ("i'm " if s == s.lower() else "I'm ") + s
    s = _INLINE_FILLER.sub("", s)
    s = _CASUAL_WORD.sub(_casual, s)
    s = _YEARS_OLD.sub(r"\1 year old", s)
    if "the only" in s or "the one" in s:
        s = _THE_ONE_WHO.sub(lambda m: "I " + _first_person(m.group(1)), s)
    return re.sub(r"[ \t]{2,}", " ", s).strip()


# A state said with its subject and verb left out, at the start: "allergic to mustard", "married, no kids".
_ELIDED_STATE = re.compile(
    r"(?:allergic|alergic|engaged|married)\s+to\b|(?:married|engaged|divorced|widowed|retired|vegan|vegetarian|"
    r"pescatarian|pregnant)\s*(?:[,.!;]|$|\s+(?:and|with|since|for|now)\b)",
    re.I,
)  # fmt: skip
# Words that make the whole sentence a condition, wherever they are ("I'll move to Berlin, but only if …").
_CONDITIONS = frozenset(
    {"if", "unless", "whether", "suppose", "supposing", "imagine", "pretend", "hypothetically"}
)
# Where a clause with its own subject starts: "…, but he might think that's lame", "… so I'd rather not".
_SUBJECT_CLAUSE = re.compile(
    r"(?:,\s*|\s+)(?:but|so|and|though|although|because|whereas|while)\s+(?=(?:he|she|they|it|you|we|I|i|i'd|I'd|"
    r"my|his|her|their|our|the|that|this|there)\b)|\s*[;:]\s+|\s+[-–—]\s+|"
    r"\s+(?:says|said|thinks|reckons|keeps\s+saying|told\s+me)\s+(?=(?:I|i|I'd|I'm|we)\b)",
)


def _before_hedge(sentence: str) -> str:
    """The statement before a clause of its own that hedges: "I love hiking but my knees might not cope" -> "I love
    hiking"; "" when the hedge is the sentence's own, is a condition, or comes first."""
    words = set(re.findall(r"[\w']+", sentence.lower()))
    if _CONDITIONS & words or sentence.rstrip().endswith("?"):
        return ""
    kept = ""
    for boundary in _SUBJECT_CLAUSE.finditer(sentence):
        before = sentence[: boundary.start()]
        if HEDGES.intersection(re.findall(r"[\w']+", before.lower())):
            break
        kept = before
    # "I'm moving to Berlin next month but I might not": a hedge the user puts on their own words takes them back
    if kept and re.search(
        r"^\W*(?:but|so|and|though|although)?\s*(?:I|we|i)\b.*(?:\bnot\b|n't\b|\bnever\b)",
        sentence[len(kept) :],
    ):
        return ""
    return kept


def facts_in(text: str) -> list[Fact]:
    """Every fact about the user ``text`` states, in the order stated, each (predicate, value) once."""
    found: dict[tuple[str, str], Fact] = {}
    for sentence in _SENTENCE.finditer(text):
        body = normalise(sentence.group(0).replace("’", "'"))  # a phone's apostrophe too
        # "I'm gonna paint the spare room, any tips?": the statement before the question is read
        if states_nothing(body) and (asked := _ASKED_AFTER.search(body)):
            body = body[: asked.start()]
        # "I love hiking but my knees might not cope": the statement before the hedging clause is read
        if states_nothing(body) and not (body := _before_hedge(body)):
            continue
        if states_nothing(body):
            continue
        for fn in RULES:
            for predicate, value, at in fn(body):
                value = _SYMBOLS_AFTER.sub("", value).strip(" ,.;:'\"")  # "go to Tenerife on Saturday ☀️"
                key = (predicate, re.sub(r"\W+", " ", value.lower()).strip())
                if value and key not in found:
                    found[key] = Fact(predicate, value, sentence.start() + at)
    greeting = re.search(rf"\b(?:hi|hello|hey)\b[\s!,.]+(?:I'm|I\s+am|this\s+is)\s+{_NAME}", text, re.I)
    if greeting and ("name", greeting.group(1).lower()) not in found:
        found[("name", greeting.group(1).lower())] = Fact("name", greeting.group(1), greeting.start())
    return sorted(found.values(), key=lambda f: f.start)
