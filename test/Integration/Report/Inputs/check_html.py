"""Checks that report.html is well-formed (parses as XML), has one section
with one SVG histogram per layer of report.json, names every layer, draws
the clipping range and grid ends, and embeds the same JSON."""
import json
import sys
import xml.etree.ElementTree as ET

directory = sys.argv[1]
report = json.load(open(f"{directory}/report.json"))
text = open(f"{directory}/report.html", encoding="utf-8").read()
assert text.startswith("<!DOCTYPE html>\n"), "no doctype"
root = ET.fromstring(text[len("<!DOCTYPE html>\n"):])
sections = root.findall(".//section[@class='layer']")
svgs = root.findall(".//section[@class='layer']/svg")
names = [s.find("h2").text for s in sections]
assert names == [l["name"] for l in report["layers"]], names
assert len(svgs) == len(report["layers"]), (len(svgs), len(report["layers"]))
for svg in svgs:
    labels = [t.text for t in svg.findall("text")]
    for label in ("clip", "qmin", "qmax", "min", "max"):
        assert label in labels, (label, labels)
    assert svg.findall("path[@class='bars log']"), "no bars"
embedded = root.find(".//script[@id='report-data']").text
assert json.loads(embedded) == report, "embedded JSON differs"
print(f"HTML OK: {len(svgs)} layers")
