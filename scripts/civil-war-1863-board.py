#!/usr/bin/env python3
"""Write data/civil-war-1863-board.txt: a RECONSTRUCTION of the 18 x 18 board of
the Parker Brothers Civil War Game 1863, whose printed board is unpublished.

The facts come from ../shared/rules/civil-war-1863-geography.md (public geography
of 1863, typed in below as coordinates); docs/civil-war-1863-board.md explains the
projection, each square class and every choice. Python 3 standard library only.

    python3 scripts/civil-war-1863-board.py            # rewrite the data file
    python3 scripts/civil-war-1863-board.py --stdout   # print it instead
    python3 scripts/civil-war-1863-board.py --picture  # print the ASCII picture
    python3 scripts/civil-war-1863-board.py --search-frames  # frames that fit

Coordinates are (latitude N, longitude W) in decimal degrees.
"""

import os
import sys

# --- The projection -------------------------------------------------------
# Plate carree (equirectangular) onto the 18 x 18 grid:
#   column = floor((WEST - lon_W) / DLON)   0 = A (west) .. 17 = R (east)
#   row    = floor((NORTH - lat_N) / DLAT)  0 = row 1 (north) .. 17 = row 18
# The frame spans 92.15W-74.96W and 43.05N-29.10N. At 36N a square is about
# 53 miles both ways. --search-frames lists the frames that fit.
# The frame was chosen (among frames covering Baton Rouge to Philadelphia and
# Buffalo to the Gulf) so that every city below falls on a square of its own.
SIZE = 18
WEST = 92.15
DLON = 0.955
NORTH = 43.05
DLAT = 0.775
COLUMNS = "ABCDEFGHIJKLMNOPQR"


def cell(lat, lon):
    """The (column, row) of the square holding this point, 0-based."""
    col = int((WEST - lon) // DLON)
    row = int((NORTH - lat) // DLAT)
    if not (0 <= col < SIZE and 0 <= row < SIZE):
        raise SystemExit(f"point {lat}N {lon}W is off the board")
    return col, row


def grid_pos(lat, lon):
    """The point in grid units (column, row as floats)."""
    return (WEST - lon) / DLON, (NORTH - lat) / DLAT


def name(sq):
    return f"{COLUMNS[sq[0]]}{sq[1] + 1}"


# --- Cities ---------------------------------------------------------------
# Every city is a railroad end or junction (P4: other towns only bound
# railroad sections) or one of the nine the rules name.
CITIES = {
    # the nine the rules name
    "St. Louis": (38.63, 90.20),
    "Indianapolis": (39.77, 86.16),
    "Pittsburg": (40.44, 80.00),
    "Baltimore": (39.29, 76.61),
    "Washington": (38.90, 77.04),
    "Richmond": (37.54, 77.44),
    "Chattanooga": (35.05, 85.31),
    "Atlanta": (33.75, 84.39),
    "Charleston": (32.78, 79.93),
    # railroad towns
    "Harpers Ferry": (39.32, 77.73),
    "Cumberland": (39.65, 78.76),
    "Wheeling": (40.06, 80.72),
    "Harrisburg": (40.27, 76.88),
    "Philadelphia": (39.95, 75.16),
    "Columbus": (39.96, 83.00),
    "Cincinnati": (39.10, 84.51),
    "Louisville": (38.25, 85.76),
    "Nashville": (36.16, 86.78),
    "Knoxville": (35.96, 83.92),
    "Lynchburg": (37.41, 79.14),
    "Fredericksburg": (38.30, 77.46),
    "Memphis": (35.15, 90.05),
    "Corinth": (34.93, 88.52),
    "Augusta": (33.47, 81.97),
    "Wilmington": (34.23, 77.94),
    "Montgomery": (32.37, 86.30),
    "Mobile": (30.69, 88.04),
    # the Mobile & Ohio's northern end, Columbus KY, lies on Cairo's square
    "Cairo": (37.00, 89.18),
}

KEY_CITIES = {
    "Union": ["St. Louis", "Indianapolis", "Pittsburg", "Baltimore"],
    "Confederacy": ["Chattanooga", "Atlanta", "Charleston"],
}
CAPITALS = [("Washington", "Union", 4), ("Richmond", "Confederacy", 5)]

# --- Water (P1, P3) -------------------------------------------------------
# Open water as polygons of (lat, lon) points. Each is its own sea area: two
# neighbouring squares of one area are joined, areas meet where they share a
# square (the Chesapeake and the Atlantic at the capes, not across Delmarva).
SEAS = {
    "Lake Michigan": [
        (41.62, 87.50), (41.62, 86.95), (42.20, 86.30), (43.60, 86.20),
        (43.60, 87.90), (42.50, 87.80), (41.90, 87.62),
    ],
    "Lake Erie": [
        (41.65, 83.50), (41.40, 82.70), (41.50, 81.69), (41.90, 80.70),
        (42.13, 80.08), (42.48, 79.33), (42.89, 78.88), (42.88, 79.25),
        (42.55, 80.20), (42.66, 81.20), (41.95, 82.50), (42.05, 83.15),
    ],
    "Lake Ontario": [
        (43.20, 79.50), (43.25, 78.50), (43.30, 77.00), (43.60, 76.00),
        (44.00, 76.00), (44.00, 79.50),
    ],
    "Chesapeake Bay": [
        (39.55, 76.05), (39.20, 76.40), (38.90, 76.45), (38.40, 76.40),
        (38.00, 76.30), (37.50, 76.30), (36.95, 76.30), (36.93, 76.00),
        (37.10, 75.97), (37.50, 75.90), (38.00, 75.95), (38.50, 76.20),
        (39.00, 76.20), (39.50, 75.95),
    ],
    "Atlantic": [
        (40.70, 74.00), (40.45, 74.00), (38.93, 74.90), (39.20, 75.05),
        (39.45, 75.50), (39.60, 75.58), (39.35, 75.55), (39.10, 75.40),
        (38.80, 75.10), (38.30, 75.08), (37.90, 75.35), (37.10, 75.97),
        (36.95, 76.35), (36.85, 75.97), (36.50, 75.95), (36.10, 76.70),
        (35.85, 76.20), (35.45, 76.55), (35.10, 77.00), (34.72, 76.70),
        (34.60, 76.50), (34.20, 77.80), (33.85, 77.97), (33.70, 78.90),
        (33.35, 79.20), (32.75, 79.87), (32.20, 80.70), (32.00, 80.85),
        (31.15, 81.40), (30.30, 81.40), (29.90, 81.30), (29.00, 80.90),
        (28.00, 80.00), (28.00, 70.00), (45.00, 70.00), (45.00, 74.00),
    ],
    "Gulf of Mexico": [
        (28.00, 93.00), (29.60, 93.00), (29.60, 92.00), (29.45, 91.30),
        (29.30, 90.60), (29.20, 89.90), (29.60, 89.60), (30.15, 89.70),
        (30.30, 89.40), (30.40, 88.90), (30.40, 88.30), (30.69, 88.05),
        (30.60, 87.90), (30.30, 87.75), (30.40, 87.20), (30.39, 86.50),
        (30.15, 85.70), (29.67, 85.35), (29.70, 85.00), (30.08, 84.20),
        (29.60, 83.50), (29.13, 83.03), (28.00, 82.70),
    ],
}

# Navigable rivers as waypoints (P1: the board draws only rivers gunboats used).
# A river ends in the sea or on another river, so its last square is shared.
RIVERS = {
    "Mississippi": [
        (38.63, 90.20), (37.00, 89.18), (36.50, 89.50), (35.15, 90.05),
        (34.00, 90.70), (32.35, 90.88), (31.50, 91.40), (30.45, 91.19),
        (29.95, 90.07),
    ],
    "Ohio": [
        (40.44, 80.00), (40.06, 80.72), (39.40, 81.40), (38.80, 82.20),
        (38.70, 83.60), (39.10, 84.51), (38.25, 85.76), (37.97, 87.57),
        (37.14, 88.40), (37.08, 88.60), (37.00, 89.18),
    ],
    "Tennessee": [
        (35.96, 83.92), (35.40, 84.80), (35.05, 85.31), (34.87, 85.84),
        (34.60, 87.00), (34.80, 87.70), (35.15, 88.33), (36.50, 88.00),
        (37.08, 88.60),
    ],
    "Cumberland": [
        (36.16, 86.78), (36.53, 87.36), (36.49, 87.86), (37.14, 88.40),
    ],
    "Potomac": [(39.32, 77.73), (38.90, 77.04), (38.40, 77.20), (38.00, 76.30)],
    "James": [(37.54, 77.44), (37.30, 77.10), (37.00, 76.50), (36.95, 76.30)],
}

# --- Mountains (P5) -------------------------------------------------------
# The Appalachian belt as (south, north, east, west) boxes from the geography
# file. A square holds mountains when at least MOUNTAIN_SHARE of it lies in
# the belt: a sliver at a corner is too small to draw a ridge on.
MOUNTAINS = [
    (34.0, 35.0, 85.0, 86.0),   # north-east Alabama, north-west Georgia
    (35.0, 36.5, 84.5, 85.5),   # the Cumberland Plateau
    (35.0, 36.5, 82.0, 84.0),   # east Tennessee, western North Carolina
    (36.5, 37.2, 82.0, 84.0),   # our choice: the Cumberland Mountains on the
                                # Kentucky-Virginia line, joining the two boxes
    (37.0, 39.0, 79.0, 82.0),   # south-west Virginia, West Virginia
    (39.5, 41.0, 77.0, 79.5),   # the Allegheny Front and the Pennsylvania ridges
]
MOUNTAIN_SHARE = 0.4

# Passes (P6): a diagonal step across the range at the grid corner nearest
# the pass, in the direction the road, river or railroad crosses the ridges.
# "\" joins the north-west and south-east squares, "/" the north-east and
# south-west ones. The valley of the Virginia & Tennessee is not marked: the
# railroad runs along it, and marching along its bed is the way through (P5).
# Every pass leads from a square without mountains into the belt.
PASSES = [
    ("Cumberland Gap", (36.60, 83.67), "\\"),
    ("Potomac gap at Harpers Ferry", (39.32, 77.73), "/"),
    ("Allegheny crossing at Altoona", (40.50, 78.40), "\\"),
    ("Tennessee River gorge", (35.05, 85.50), "/"),
]

# --- Railroads (P4, P15-P17) ----------------------------------------------
# Each line runs city to city through waypoints; lines meet only in cities,
# so every section (P16) runs between two cities.
RAILROADS = [
    ("Baltimore & Ohio, Washington branch", ["Baltimore", "Washington"]),
    ("Baltimore & Ohio", ["Baltimore", "Harpers Ferry"]),
    ("Baltimore & Ohio", ["Harpers Ferry", "Cumberland"]),
    ("Baltimore & Ohio", ["Cumberland", (39.34, 80.02), "Wheeling"]),
    ("Northern Central", ["Baltimore", "Harrisburg"]),
    ("Pennsylvania", ["Philadelphia", "Harrisburg"]),
    ("Pennsylvania", ["Harrisburg", (40.50, 78.40), "Pittsburg"]),
    ("Pittsburgh & Steubenville, Steubenville & Indiana", ["Pittsburg", (40.37, 80.62), "Columbus"]),
    ("Columbus & Indianapolis", ["Columbus", "Indianapolis"]),
    ("Terre Haute & St. Louis", ["Indianapolis", (39.47, 87.41), "St. Louis"]),
    ("Ohio & Mississippi", ["Cincinnati", (38.68, 87.53), "St. Louis"]),
    ("Louisville & Nashville", ["Louisville", "Nashville"]),
    ("Nashville & Chattanooga", ["Nashville", (35.85, 86.39), (35.36, 86.21), "Chattanooga"]),
    ("Western & Atlantic", ["Chattanooga", "Atlanta"]),
    ("Georgia", ["Atlanta", "Augusta"]),
    ("South Carolina", ["Augusta", "Charleston"]),
    ("Memphis & Charleston", ["Memphis", "Corinth"]),
    ("Memphis & Charleston", ["Corinth", (34.60, 87.00), (34.87, 85.84), "Chattanooga"]),
    ("East Tennessee", ["Chattanooga", "Knoxville"]),
    ("Virginia & Tennessee", ["Knoxville", (36.60, 82.20), "Lynchburg"]),
    ("Southside, Richmond & Petersburg", ["Lynchburg", "Richmond"]),
    ("Richmond, Fredericksburg & Potomac", ["Richmond", "Fredericksburg"]),
    ("Orange & Alexandria, Virginia Central",
     ["Washington", (38.75, 77.47), (38.14, 78.19), "Richmond"]),
    ("Petersburg & Weldon, Wilmington & Weldon", ["Richmond", (36.43, 77.60), "Wilmington"]),
    ("Wilmington & Manchester", ["Wilmington", (34.20, 79.76), "Charleston"]),
    ("Montgomery & West Point, Atlanta & West Point",
     ["Atlanta", (32.88, 85.18), "Montgomery"]),
    ("Mobile & Ohio", ["Mobile", "Corinth"]),
    ("Mobile & Ohio", ["Corinth", (36.97, 89.00), "Cairo"]),
]

# --- Start circles ----------------------------------------------------------
# (side, kind, count, where, the historical force it stands for). The rules
# give 15 infantry, 2 cavalry, 3 gunboats to the Union and 10, 4, 1 to the
# Confederacy; they are shared out in proportion to the forces of January 1863.
# `where` is a city name, a point, or a point plus a (column, row) shift.
START = [
    ("Union", "infantry", 4, ((38.30, 77.46), (-1, -1)),
     "Army of the Potomac at Falmouth, facing Fredericksburg"),
    ("Union", "cavalry", 1, ((38.30, 77.46), (-1, -1)),
     "cavalry of the Army of the Potomac"),
    ("Union", "infantry", 2, "Washington", "the defences of Washington"),
    ("Union", "infantry", 1, (36.95, 76.30), "Fort Monroe and Suffolk"),
    ("Union", "gunboat", 1, (36.95, 76.30), "North Atlantic Blockading Squadron at Hampton Roads"),
    ("Union", "infantry", 1, (35.11, 77.04), "the garrison of New Bern"),
    ("Union", "infantry", 1, (32.20, 80.70), "the foothold at Port Royal and Hilton Head"),
    ("Union", "infantry", 3, (35.85, 86.39), "Army of the Cumberland at Murfreesboro"),
    ("Union", "cavalry", 1, (35.85, 86.39), "cavalry of the Army of the Cumberland"),
    ("Union", "infantry", 2, "Memphis", "Grant's Army of the Tennessee around Memphis"),
    ("Union", "gunboat", 1, "Memphis", "Mississippi River Squadron below Memphis"),
    ("Union", "gunboat", 1, "Cairo", "Mississippi River Squadron base at Cairo"),
    ("Union", "infantry", 1, "Louisville", "Union forces at Louisville, Lexington and Cincinnati"),
    ("Confederacy", "infantry", 3, "Fredericksburg", "Lee's Army of Northern Virginia"),
    ("Confederacy", "cavalry", 1, "Fredericksburg", "Stuart's cavalry"),
    ("Confederacy", "infantry", 1, "Richmond", "the forces at Richmond and Petersburg"),
    ("Confederacy", "infantry", 2, ((35.36, 86.21), (0, 1)), "Bragg's Army of Tennessee at Tullahoma"),
    ("Confederacy", "cavalry", 2, ((35.36, 86.21), (0, 1)), "Wheeler's and Forrest's cavalry"),
    ("Confederacy", "infantry", 1, (32.35, 90.88), "the garrison of Vicksburg"),
    ("Confederacy", "infantry", 1, (30.68, 91.32), "the garrison of Port Hudson"),
    ("Confederacy", "cavalry", 1, (33.77, 89.81), "Van Dorn's cavalry at Grenada"),
    ("Confederacy", "infantry", 1, "Knoxville", "the Department of East Tennessee"),
    ("Confederacy", "infantry", 1, "Charleston", "Beauregard's coast defenders"),
    ("Confederacy", "gunboat", 1, "Charleston", "the ironclads Chicora and Palmetto State"),
]


# --- Classifying the squares ------------------------------------------------
SAMPLES = 8  # sample points per square side
SHARE = 0.08  # a square holds land (or water) when this share of it does


def inside(point, poly):
    """Whether (lat, lon) lies inside the polygon (even-odd rule)."""
    lat, lon = point
    hit = False
    j = len(poly) - 1
    for i, (la, lo) in enumerate(poly):
        lb, lob = poly[j]
        if (la > lat) != (lb > lat):
            cross = lo + (lat - la) * (lob - lo) / (lb - la)
            if lon < cross:
                hit = not hit
        j = i
    return hit


def samples(col, row):
    """Points spread evenly over the square."""
    for i in range(SAMPLES):
        for j in range(SAMPLES):
            lon = WEST - (col + (i + 0.5) / SAMPLES) * DLON
            lat = NORTH - (row + (j + 0.5) / SAMPLES) * DLAT
            yield lat, lon


def classify():
    """For each square: the sea areas it holds, whether it holds land, and
    whether it holds mountains."""
    seas, land, mountain = {}, set(), set()
    total = SAMPLES * SAMPLES
    for row in range(SIZE):
        for col in range(SIZE):
            pts = list(samples(col, row))
            wet = 0
            for sea, poly in SEAS.items():
                n = sum(1 for p in pts if inside(p, poly))
                if n / total >= SHARE:
                    seas.setdefault(sea, []).append((col, row))
                wet += n
            if (total - wet) / total >= SHARE:
                land.add((col, row))
            m = sum(1 for (la, lo) in pts
                    if any(s <= la <= n and e <= lo <= w for (s, n, e, w) in MOUNTAINS))
            if m / total >= MOUNTAIN_SHARE:
                mountain.add((col, row))
    return seas, land, mountain


def chain(points):
    """The squares a polyline through these points crosses, as a chain of
    neighbouring squares (a step may be diagonal), without repeats."""
    squares = []
    for a, b in zip(points, points[1:]):
        (c0, r0), (c1, r1) = cell(*a), cell(*b)
        n = max(abs(c1 - c0), abs(r1 - r0))
        for i in range(n + 1):
            t = i / n if n else 0
            sq = (round(c0 + (c1 - c0) * t), round(r0 + (r1 - r0) * t))
            if not squares or squares[-1] != sq:
                squares.append(sq)
    if len(set(squares)) != len(squares):
        raise SystemExit(f"a chain visits a square twice: {[name(s) for s in squares]}")
    return squares


def place(where):
    if isinstance(where, str):
        return cell(*CITIES[where])
    if isinstance(where[0], tuple):
        (lat, lon), (dc, dr) = where
        c, r = cell(lat, lon)
        return c + dc, r + dr
    return cell(*where)


def corner_pass(point, slant):
    """The diagonal pair of squares at the grid corner nearest the point."""
    x, y = grid_pos(*point)
    cx, cy = round(x), round(y)
    if slant == "\\":
        return (cx - 1, cy - 1), (cx, cy)
    return (cx, cy - 1), (cx - 1, cy)


def build(lay_out_only=False):
    """Everything the file lists, or with lay_out_only just the cities and
    railroads (enough to judge a frame, and fast)."""
    city_sq = {c: cell(*p) for c, p in CITIES.items()}
    seen = {}
    for c, sq in city_sq.items():
        if sq in seen:
            raise SystemExit(f"{c} and {seen[sq]} fall on the same square {name(sq)}")
        seen[sq] = c
    seas, land, mountain = ({}, set(), set()) if lay_out_only else classify()
    rivers = {r: chain(pts) for r, pts in RIVERS.items()}
    # A line is split at every city it passes through (P16: cities bound
    # sections); a stretch two lines share is kept once.
    rails, drawn = [], set()
    for line, stops in RAILROADS:
        pts = [CITIES[s] if isinstance(s, str) else s for s in stops]
        sqs = chain(pts)
        cuts = [i for i, sq in enumerate(sqs) if sq in seen]
        if cuts[0] != 0 or cuts[-1] != len(sqs) - 1:
            raise SystemExit(f"{line} does not run from a city to a city")
        for i, j in zip(cuts, cuts[1:]):
            link = sqs[i:j + 1]
            key = min(tuple(link), tuple(reversed(link)))
            if key in drawn:
                continue
            drawn.add(key)
            rails.append((line, seen[link[0]], seen[link[-1]], link))
    # Lines meet only in cities, so every section runs between two cities.
    owner = {}
    for line, a, b, sqs in rails:
        for sq in sqs[1:-1]:
            if sq in owner:
                raise SystemExit(f"{line} {a}-{b} meets {owner[sq]} outside a city at {name(sq)}")
            owner[sq] = f"{line} {a}-{b}"
    passes = [(p, corner_pass(pt, slant)) for p, pt, slant in PASSES]
    for p, (a, c) in passes:
        if not lay_out_only and a in mountain and c in mountain:
            raise SystemExit(f"the pass {p} joins two mountain squares")
    return dict(city_sq=city_sq, seas=seas, land=land, mountain=mountain,
                rivers=rivers, rails=rails, passes=passes)


# --- Writing ----------------------------------------------------------------
TERRAIN_LETTERS = """\
#   ~  water only: open sea (bays, sounds and the Great Lakes) with no land
#   :  coast: land and open sea
#   .  land
#   ^  land with mountains
#   ;  land with mountains, and open sea"""


def terrain(b, sq):
    sea = any(sq in sqs for sqs in b["seas"].values())
    if sq not in b["land"]:
        return "~"
    if sq in b["mountain"]:
        return ";" if sea else "^"
    return ":" if sea else "."


def start_circles(b):
    out = []
    for side, kind, count, where, note in START:
        out.append((place(where), side, count, kind, note))
    return out


def picture(b):
    """The board drawn for reading: four characters a square."""
    river_sq = {sq for sqs in b["rivers"].values() for sq in sqs}
    rail_sq = {sq for _, _, _, sqs in b["rails"] for sq in sqs}
    city = {sq: c for c, sq in b["city_sq"].items()}
    key = {b["city_sq"][c] for cs in KEY_CITIES.values() for c in cs}
    cap = {b["city_sq"][c] for c, _, _ in CAPITALS}
    starts = {}
    for sq, side, count, _, _ in start_circles(b):
        starts.setdefault(sq, [side, 0])[1] += count
    lines = ["    " + "".join(f" {c}  " for c in COLUMNS).rstrip()]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            sq = (col, row)
            t = terrain(b, sq)
            w = "=" if sq in river_sq else " "
            r = "#" if sq in rail_sq else " "
            c = "@" if sq in cap else "*" if sq in key else "o" if sq in city else " "
            cells.append(t + w + r + c)
        lines.append(f"{row + 1:>2}  " + "".join(cells).rstrip())
    lines.append("")
    lines.append("    start circles: U = Union, C = Confederacy, with the pieces they hold")
    lines.append("    " + "".join(f" {c}  " for c in COLUMNS).rstrip())
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            sq = (col, row)
            if sq in starts:
                side, n = starts[sq]
                cells.append(f"{terrain(b, sq)}{side[0]}{n:<2}")
            else:
                cells.append(terrain(b, sq) + "   ")
        lines.append(f"{row + 1:>2}  " + "".join(cells).rstrip())
    return "\n".join(lines)


LEGEND = """\
Picture legend: each square is four characters. First its terrain letter (as in
[terrain]), then = if a navigable river runs through it, # if a railroad does,
and last * for a key city, @ for a capital, o for another city."""

# The same words as RECONSTRUCTION_NOTE in src/games/civil_war_1863/core/board.rs.
NOTE = ("The printed board of the Parker Brothers Civil War Game 1863 has never been "
        "published. The board used here is a reconstruction from the public geography "
        "of 1863, not a copy of the printed board. An owner of the game can replace it "
        "with a transcription of theirs (data/civil-war-1863-board.txt; "
        "docs/civil-war-1863-board.md says how).")


def wrap(text, width):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


HEADER = "\n".join(
    ["# THE CIVIL WAR GAME 1863 BOARD: A RECONSTRUCTION", "#"]
    + ["# " + line for line in wrap(NOTE, 74)]
    + ["#"]
    + ["# " + line for line in wrap(
        "This file was written by scripts/civil-war-1863-board.py from the facts in "
        "civil-war-1863-geography.md; docs/civil-war-1863-board.md explains the "
        "projection and every choice. To play on the printed board, replace this file "
        "with a transcription of yours in the same format (the sections below; a # "
        "starts a comment) and rebuild: the parser names the line of any mistake. "
        "Squares are named by column A-R (west to east) and row 1-18 (north to south); "
        "A1 is the north-west corner.", 74)]
) + "\n"


def render(b):
    out = [HEADER]
    pic = picture(b)
    out.append("# " + LEGEND.replace("\n", "\n# "))
    out.append("#")
    out.extend("# " + line if line else "#" for line in pic.split("\n"))
    out.append("")
    out.append("[terrain]")
    out.append("# One row per line, north first: the row number, then a letter per square:")
    out.append(TERRAIN_LETTERS)
    out.append("#    " + " ".join(COLUMNS))
    for row in range(SIZE):
        letters = " ".join(terrain(b, (col, row)) for col in range(SIZE))
        out.append(f"{row + 1:>2}   {letters}")
    out.append("")
    out.append("[water]")
    out.append("# sea NAME: squares. Any two neighbouring squares of one sea are joined (P3).")
    out.append("# river NAME: squares, in order. Each square is joined to the next (P3).")
    out.append("# Two waters meet on a square they share (a river mouth, a confluence).")
    for sea, sqs in b["seas"].items():
        out.append(f"sea {sea}: " + " ".join(name(sq) for sq in sorted(sqs, key=lambda q: (q[1], q[0]))))
    for river, sqs in b["rivers"].items():
        out.append(f"river {river}: " + " ".join(name(sq) for sq in sqs))
    out.append("")
    out.append("[passes]")
    out.append("# NAME: two diagonal neighbours. Infantry may step between them whatever")
    out.append("# mountains they hold (P6).")
    for p, (a, c) in b["passes"]:
        out.append(f"{p}: {name(a)} {name(c)}")
    out.append("")
    out.append("[railroads]")
    out.append("# NAME: squares, in order; each square is a rail step from the next (P15).")
    out.append("# Every line here runs from a city to a city; its squares between are one")
    out.append("# section (P16).")
    for line, a, c, sqs in b["rails"]:
        out.append(f"{line} ({a} - {c}): " + " ".join(name(sq) for sq in sqs))
    out.append("")
    out.append("[cities]")
    out.append("# SQUARE NAME. Any square named here is a city (P4).")
    for c, sq in sorted(b["city_sq"].items(), key=lambda x: (x[1][1], x[1][0])):
        out.append(f"{name(sq)} {c}")
    out.append("")
    out.append("[key cities]")
    out.append("# SIDE: squares. The side whose key cities they are (Union: the North's four).")
    for side, cs in KEY_CITIES.items():
        out.append(f"{side}: " + " ".join(name(b['city_sq'][c]) for c in cs))
    out.append("")
    out.append("[capitals]")
    out.append("# SQUARE SIDE GARRISON: the capital and its permanent garrison (P29).")
    for c, side, g in CAPITALS:
        out.append(f"{name(b['city_sq'][c])} {side} {g}")
    out.append("")
    out.append("[start circles]")
    out.append("# SQUARE SIDE COUNT KIND: the historical force the circle stands for.")
    for sq, side, count, kind, note in start_circles(b):
        out.append(f"{name(sq)} {side} {count} {kind}: {note}")
    return "\n".join(out) + "\n"


def search_frames():
    """Print the frames, among those covering Baton Rouge to Philadelphia and
    Buffalo to the Gulf, where every city has a square of its own and the
    railroads meet only in cities: how WEST, DLON, NORTH, DLAT were chosen."""
    global WEST, DLON, NORTH, DLAT
    for west in range(9135, 9220, 5):
        for dlon in range(890, 960, 5):
            for north in range(4295, 4350, 5):
                for dlat in range(735, 785, 5):
                    WEST, DLON, NORTH, DLAT = west / 100, dlon / 1000, north / 100, dlat / 1000
                    if WEST - SIZE * DLON > 75.05 or NORTH - SIZE * DLAT > 29.75:
                        continue
                    try:
                        build(lay_out_only=True)
                    except SystemExit:
                        continue
                    print(f"WEST={WEST} DLON={DLON} NORTH={NORTH} DLAT={DLAT}")


def main():
    if "--search-frames" in sys.argv:
        search_frames()
        return
    b = build()
    text = render(b)
    if "--picture" in sys.argv:
        print(LEGEND)
        print()
        print(picture(b))
        return
    if "--stdout" in sys.argv:
        sys.stdout.write(text)
        return
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "data", "civil-war-1863-board.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
