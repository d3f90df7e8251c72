"""The word lists the rules read with: data only, each list a word class one or more rules test against."""

from __future__ import annotations

NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10}  # fmt: skip


JOB_HEADS = frozenset(["engineer", "developer", "programmer", "designer", "architect", "manager", "director",
                       "nurse", "doctor", "physician", "surgeon", "dentist", "vet", "veterinarian", "teacher",
                       "professor", "lecturer", "tutor", "student", "researcher", "scientist", "analyst",
                       "consultant", "accountant", "lawyer", "attorney", "solicitor", "paralegal", "paramedic",
                       "firefighter", "policeman", "policewoman", "pilot", "chef", "cook", "baker", "barista",
                       "waiter", "waitress", "bartender", "cashier", "driver", "mechanic", "electrician", "plumber",
                       "carpenter", "builder", "farmer", "writer", "journalist", "editor", "author", "artist",
                       "painter", "musician", "photographer", "actor", "actress", "producer", "librarian",
                       "pharmacist", "therapist", "counselor", "counsellor", "worker", "clerk", "secretary",
                       "assistant", "receptionist", "administrator", "technician", "chemist", "physicist",
                       "economist", "statistician", "mathematician", "translator", "interpreter", "salesman",
                       "saleswoman", "salesperson", "recruiter", "marketer", "entrepreneur", "founder", "ceo", "cto",
                       "cfo", "coo", "intern", "lead", "coordinator", "specialist", "officer", "soldier", "sailor",
                       "cleaner", "nanny", "caregiver", "carer", "midwife", "optometrist", "surveyor", "welder",
                       "machinist", "tailor", "hairdresser", "stylist", "trainer", "coach", "instructor", "broker",
                       "banker", "trader", "auditor", "freelancer", "contractor", "dev", "sre", "postdoc",
                       "principal", "owner", "executive", "supervisor", "planner", "strategist", "practitioner",
                       "guard", "representative", "rep", "agent", "operator", "attendant", "inspector", "associate",
                       "handler", "dispatcher", "courier", "porter", "janitor", "caretaker", "housekeeper",
                       "steward", "stewardess", "labourer", "laborer", "hygienist", "sonographer", "radiographer",
                       "physio",
                       # jobs said by their initials ("a primary school TA", "an RN")
                       "ta", "rn", "gp", "lpn", "cna", "emt", "hca", "pa", "ot", "slp", "senco"])  # fmt: skip


# Not working, said as a state: "I'm retired", "I'm between jobs", "I'm out of work".
JOB_STATES = {"retired": "retired", "unemployed": "unemployed", "self-employed": "self-employed",
               "semi-retired": "semi-retired", "between jobs": "unemployed", "out of work": "unemployed",
               "jobless": "unemployed", "out of a job": "unemployed"}  # fmt: skip


DIETS = frozenset({"vegetarian", "vegan", "pescatarian", "pescetarian", "gluten-free", "dairy-free", "keto",
                   "kosher", "halal", "paleo", "teetotal", "flexitarian", "plant-based", "low-carb"})  # fmt: skip


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


MARITAL = frozenset({"married", "single", "divorced", "engaged", "widowed", "separated"})


RELATIVES = frozenset(["mother", "mom", "mum", "father", "dad", "parents", "twins", "sister", "brother", "sisters",
                       "brothers", "sibling", "siblings", "son", "sons", "daughter", "daughters", "kid", "kids",
                       "child", "children", "baby", "grandmother", "grandma", "grandfather", "grandpa",
                       "grandparents", "grandson", "granddaughter", "grandkids", "grandchildren", "aunt", "uncle",
                       "cousin", "cousins", "niece", "nephew", "twin", "nan", "nana", "nanna", "gran", "granny",
                       "grandad", "granddad", "stepmother", "stepfather", "stepson", "stepdaughter", "in-laws",
                       "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "son-in-law",
                       "daughter-in-law", "stepbrother", "stepsister", "half-brother", "half-sister", "stepkids",
                       "stepchildren", "grandchild", "granddaughters", "grandsons", "toddler", "newborn", "nieces",
                       "nephews", "aunts", "uncles"])  # fmt: skip


# Every kin word's plural ("my stepdaughters", "my grandsons"), by rule rather than one at a time.
RELATIVES = RELATIVES | {w + "s" for w in RELATIVES if not w.endswith(("s", "y", "d")) and "-" not in w} | {
    "babies", "granddads", "grandads"}  # fmt: skip


PARTNERS = frozenset({"wife", "husband", "partner", "girlfriend", "boyfriend", "fiance", "fiancé", "fiancee",
                      "fiancée", "spouse"})  # fmt: skip


CANONICAL = {
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


# Breeds and kinds said instead of "dog" or "cat" ("a lurcher", "our cockapoo", "a bearded dragon"),
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


QUESTION_START = frozenset({"who", "what", "what's", "where", "which", "when", "why", "how", "do", "does", "did",
                             "can", "could", "should", "would", "will", "is", "are", "am", "was", "were", "shall",
                             "may", "tell", "remind", "give", "show", "help", "let's"})  # fmt: skip


# "I'm going to ask you something" is talk about the conversation, not a plan.
TALK = frozenset({"ask", "tell", "say", "need", "explain", "share", "paste", "send", "give", "show", "check",
                   "describe", "try", "list", "write", "copy", "answer", "know", "understand", "see", "clarify",
                   "repeat", "rephrase", "mention", "add", "use", "the", "a", "an", "my", "your", "you", "be",
                   "have", "go", "keep", "start", "continue", "do", "think", "consider", "wait", "figure", "reply",
                   "respond", "grab", "pop", "nip", "hop", "bed", "sleep", "work", "school", "class", "lunch",
                   "dinner", "breakfast", "church", "ignore", "let", "leave", "skip", "drop", "stick", "pass",
                   "forget", "remember", "decide"})  # fmt: skip


NOT_SUBJECTS = frozenset(
    {"at", "in", "for", "the", "a", "kids", "children", "people", "students", "online", "part"}
)


NOT_PLACES = frozenset({"hope", "fear", "denial", "peace", "sin", "harmony", "luxury", "poverty", "style",
                         "a", "an", "the", "my", "our", "this", "that", "here", "there", "town", "the city",
                         "it", "comfort", "squalor", "countryside", "the countryside", "suburbs", "the suburbs",
                         "coast", "the coast", "seaside", "the seaside", "country", "the country", "abroad",
                         "city", "the sticks", "the mountains", "the middle of nowhere"})  # fmt: skip


NOT_CONDITION_WORDS = frozenset({"a", "an", "the", "my", "your", "his", "her", "our", "their", "of", "some", "any",
                                   "no", "lot", "bit", "much", "this", "that", "and", "or", "in", "with", "for",
                                   "to", "little", "real", "same", "what", "which", "i", "it", "is"})  # fmt: skip


# Words before "degree" that say which degree, not what in ("my final year degree", "an online degree").
NOT_FIELDS = frozenset({"final", "first", "second", "third", "undergraduate", "postgraduate", "undergrad", "new",
                        "online", "part-time", "full-time", "university", "uni", "college", "whole", "current",
                        "old", "two-year", "three-year", "four-year", "honours", "joint", "masters", "master's",
                        "bachelor's", "bachelors", "another", "second-class", "first-class", "good", "useless",
                        "expensive"})  # fmt: skip


INVARIANT = frozenset({"fish", "goldfish", "sheep", "deer", "koi", "shrimp", "bison", "moose"})


SINGULAR = {"puppies": "puppy", "bunnies": "bunny", "ponies": "pony"}


NOT_ITEMS = ("my", "your", "his", "her", "our", "their", "yours", "mine", "you", "him", "them", "us", "it")


MEALS = frozenset(
    {"dinner", "lunch", "breakfast", "tea", "coffee", "food", "meals", "bed", "beds", "homework"}
)


# Capitalised words that start a sentence without naming anyone ("Yesterday, my dog …").
NOT_NAMES = frozenset({"yesterday", "today", "tomorrow", "tonight", "honestly", "also", "anyway", "well", "so",
                       "sadly", "luckily", "unfortunately", "basically", "actually", "and", "but", "oh", "yes",
                       "no", "ok", "okay", "hi", "hey", "hello", "thanks", "sorry", "now", "then", "lately",
                       "recently"})  # fmt: skip


# Capitalised words before "born"/"based" that are no place ("Been based in Leeds", "We were born …").
NOT_PLACE_WORDS = frozenset({"been", "was", "were", "is", "am", "are", "we", "they", "he", "she", "you", "just",
                             "also", "currently", "originally", "proudly", "mostly", "still", "both", "all", "our",
                             "my"})  # fmt: skip


NOT_EVENTS = frozenset({"used", "tired", "need", "interested", "born", "based", "allergic", "married", "retired",
                         "employed", "supposed", "excited", "worried", "bored", "scared", "located", "named",
                         "called"})  # fmt: skip


ACTIVE_VERBS = frozenset({"retired", "married"})


# …but a few of those verbs with a future time and someone or somewhere else as the object are a plan: "I'm going to
# ask my boss for a raise on Monday", "I've decided to go back to uni next year" (not "ask you tomorrow", "see how
# it goes tomorrow", "go ahead tonight").
TALK_PLANNABLE = frozenset({"ask", "tell", "go", "leave", "give", "send", "show", "write", "see", "drop"})
