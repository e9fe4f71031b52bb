#!/usr/bin/env python3
"""Closed sets on the topics are enums (`Shared/Events/ClosedSets/`), never text.

Every `String` field of a payload in `Shared/Events/Payloads/` must be named below as open text (an id, a name, words
people wrote or read, a version) or as a closed set still waiting for its enum (`PENDING`, a list that only shrinks).
A new `String` field fails until someone decides which it is, so a role, a status or a kind cannot travel as text
again. A value outside an enum's cases fails the payload's decoding, and the consumer dead-letters the event: the
one rule for unknown values (`ClosedSetDecodingTests`). Exits 1 listing each problem."""
import glob
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)

OPEN_TEXT = {
    # Ids and keys: accounts, devices, requests, questions, pseudonyms, mailboxes, provider sources.
    "TelemetryRecorded.deviceId", "TelemetryRecorded.userId", "PollAnswered.userId", "PollAnswered.questionId",
    "SurveySubmitted.userId", "AppointmentChanged.userId", "AppointmentReminderDue.userId", "HoroscopeDailyDue.userId",
    "PlaceRated.userId", "FavouriteChanged.userId", "UserEmailVerified.mailboxKey", "WorshipPlacesWanted.requestId",
    "WorshipPlacesFound.requestId", "PlaceUpserted.sources", "WarningNotice.announcementNumber",
    # Names and words people wrote or read, in whatever language.
    "TelemetryRecorded.feature", "TelemetryRecorded.screen", "TelemetryRecorded.cityName", "SurveyExplained.why",
    "AppointmentChanged.reason", "AppointmentReminderDue.partnerName", "HoroscopeDailyDue.titleEn", "HoroscopeDailyDue.titleTh",
    "HoroscopeDailyDue.textEn", "HoroscopeDailyDue.textTh", "PartnerApplied.name", "PlaceUpserted.name",
    "PlaceUpserted.address", "PlaceUpserted.openingHours", "PlaceUpserted.phone", "PlaceUpserted.website",
    "ForecastCity.name", "ForecastCity.region", "ForecastCity.countryCode", "ForecastCity.country", "ForecastCity.timeZone",
    "ForecastHour.description", "ForecastUpdated.currentDescription", "WarningNotice.location", "WarningNotice.region",
    "WarningNotice.status", "WarningNotice.statusDescription", "WorshipPlacesFound.Place.name",
    "WorshipPlacesFound.Place.address",
    # Versions and dates written as the contract spells them; the provider's name as configured.
    "TelemetryRecorded.appVersion", "PartnerApplied.termsVersion", "HoroscopeDailyDue.localDate", "ForecastUpdated.provider",
}

# Closed sets still sent as text, each to become an enum as the others did.
PENDING = {
    "HoroscopeDailyDue.sign", "PlaceRated.averages",
}

STRUCT = re.compile(r"^\s*public struct (\w+)")
# A stored field whose type holds text: `String`, an optional one, an array or set of them, a dictionary keyed by them.
FIELD = re.compile(r"^\s*(?:@\w+ )?public (?:var|let) (\w+): (String|\[String\]|Set<String>|\[String: [^\]]+\])\??\s*(?:=.*)?$")


def string_fields(path):
    """`Struct.field` (nested structs joined by dots) of every String field in the file."""
    found, stack, depth = [], [], 0
    for line in open(path):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("//")[0])
        match = STRUCT.match(code)
        if match:
            stack.append((match.group(1), depth))
        field = FIELD.match(code)
        if field and stack and stack[-1][1] == depth - 1:
            found.append(".".join(name for name, _ in stack) + "." + field.group(1))
        depth += code.count("{") - code.count("}")
        while stack and depth <= stack[-1][1]:
            stack.pop()
    return found


problems = []
fields = set()
for path in sorted(glob.glob("Shared/Events/Payloads/*.swift")):
    for name in string_fields(path):
        fields.add(name)
        if name not in OPEN_TEXT and name not in PENDING:
            problems.append(f"{path}: {name} is text; make it an enum in Shared/Events/ClosedSets or name it open text here")
for name in sorted(PENDING - fields):
    problems.append(f"{name} is no longer text; take it out of PENDING in scripts/check-payloads.py")
for name in sorted(OPEN_TEXT - fields):
    problems.append(f"{name} is not a String field of any payload; take it out of OPEN_TEXT in scripts/check-payloads.py")

for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
print(f"payloads: {len(fields)} text fields, each open text or one of {len(PENDING)} closed sets still to become enums")
