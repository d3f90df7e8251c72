"""Time expressions: when something happened ("last winter", "in 2019") or will ("next month", "on Friday").

``PAST_TIME`` dates an event, ``FUTURE_TIME`` a plan; both know a bare date ("on the 3rd of May", "over Christmas").
"""

from __future__ import annotations

import re

MONTH = ("january|february|march|april|may|june|july|august|september|october|november|december|"
          "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec")  # fmt: skip


_DAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"


_SEASON = "spring|summer|autumn|fall|winter"


_HOLIDAY = (r"christmas|xmas|easter|thanksgiving|halloween|new\s+year'?s?(?:\s+eve|\s+day)?|diwali|hanukkah|eid|"
            r"ramadan|passover|the\s+holidays|spring\s+break|half[-\s]term")  # fmt: skip


_UNIT = rf"week|month|year|weekend|night|morning|afternoon|evening|{_DAY}|{_SEASON}|{_HOLIDAY}"


# How many: "two", "a few", "a couple of", "several", "18".
HOW_MANY = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
             r"a\s+few|a\s+couple\s+of|couple\s+of|a\s+couple|few|several|many|\d+)")  # fmt: skip


_DATE = (rf"(?:in\s+(?:early\s+|late\s+|mid-?)?(?:{MONTH})(?:\s+\d{{4}})?|"
         rf"in\s+(?:the\s+)?(?:{_SEASON})(?:\s+of\s+\d{{4}})?|in\s+\d{{4}}|"
         rf"on\s+(?:{_DAY})|on\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{MONTH})(?:\s+\d{{4}})?|"
         rf"on\s+(?:{MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|on\s+the\s+\d{{1,2}}(?:st|nd|rd|"
         rf"th)(?!\s+(?:floor|time|day|try|attempt|place|row|grade|year|century|anniversary|birthday|"
         rf"of\s+(?!{MONTH})))|(?:at|over|on|for)\s+(?:{_HOLIDAY}))")  # fmt: skip


PAST_TIME = re.compile(
    rf"\b(?:yesterday|last\s+(?:{_UNIT}|{MONTH})|{HOW_MANY}\s+(?:days?|weeks?|months?|years?|decades?)\s+ago|"
    rf"earlier\s+(?:this\s+(?:week|month|year)|today)|this\s+(?:morning|afternoon)|this\s+past\s+(?:{_UNIT})|"
    rf"over\s+the\s+weekend|the\s+other\s+(?:day|week|night)|back\s+in\s+(?:\d{{4}}|the\s+\d0s)|"
    rf"in\s+the\s+(?:19|20)?\d0'?s|{_DATE})\b", re.I)  # fmt: skip


FUTURE_TIME = re.compile(
    rf"\b(?:tomorrow|tonight|later\s+today|next\s+(?:{_UNIT}|{MONTH})|this\s+(?:coming\s+)?(?:{_UNIT})|"
    rf"later\s+this\s+(?:week|month|year)|"
    rf"in\s+{HOW_MANY}\s+(?:days?|weeks?|months?|years?)|(?:before|by)\s+(?:the\s+end\s+of\s+)?(?:{MONTH}|"
    rf"{_DAY}|{_SEASON}|{_HOLIDAY}|next\s+\w+|the\s+weekend)|"
    rf"(?:at|by)\s+the\s+end\s+of\s+(?:the|this|next)\s+(?:week|month|year)|for\s+(?:{MONTH}|{_SEASON}|"
    rf"the\s+weekend)|in\s+the\s+new\s+year|{_DATE})\b", re.I)  # fmt: skip


DURATION = re.compile(rf"\s+(?:for\s+(?:the\s+(?:past|last)\s+)?(?:about\s+|around\s+|nearly\s+|almost\s+|"
                      rf"over\s+)?{HOW_MANY}\s+\w+|since\s+.+|"
                      r"for\s+(?:years|ages|decades|a\s+while|life|a\s+long\s+time)|all\s+my\s+life|"
                      r"my\s+whole\s+life)$", re.I)  # fmt: skip


HABIT = re.compile(
    r"\b(?:usually|always|often|normally|generally|sometimes|never|every|each|most|typically)\b", re.I
)
