#!/usr/bin/env python3
"""Generates engine/danelaw/data/england.json, the default danelaw map, from latitude/longitude facts.

The map is a pointy-top hex grid on axial coordinates (q, r): r grows southwards, q eastwards.
Neighbouring hex centres are HEX_KM apart.  Positions are projected equirectangularly about the
map's middle latitude, which is accurate to a few per cent over England -- far finer than a hex.

Steps:
  1. Land is the inside of a hand-traced coastline polygon of Britain south of the Forth, plus a
     few forced land points (tidal islands with towns), minus forced sea points (the estuaries,
     widened to one hex so that the Humber, the Wash, the Thames and the Severn show at this scale).
  2. Keep land connected (drop islands) and keep sea within SEA_MARGIN hexes of land.
  3. Terrain from the region boxes (hills, then forest, then wetland, so later boxes win).
  4. Towns go in the hex holding their position; a clash moves the later town to the nearest free
     land hex.
  5. Rivers are polylines snapped to hex corners and walked corner to corner along hexsides; only
     hexsides between two land hexes are kept.
  6. Each sea hex takes the sea sector of the nearest coastline segment (each segment is tagged).

Usage: python3 engine/danelaw/tools/make_england.py > engine/danelaw/data/england.json
       python3 engine/danelaw/tools/make_england.py --ascii   (a quick look for hand-checking)
"""

import heapq
import json
import math
import sys

HEX_KM = 22.0
LAT0 = 52.9  # projection's reference latitude (middle of the map)
KM_PER_DEG_LAT = 111.0
KM_PER_DEG_LON = 111.32 * math.cos(math.radians(LAT0))
NORTH, SOUTH, WEST, EAST = 55.95, 49.85, -5.95, 1.95
SEA_MARGIN = 2
SQRT3 = math.sqrt(3.0)

# Coastline of Britain from the Forth round the east, south and west coasts back to the Clyde, as
# (lat, lon, sector of the sea off the segment that starts here).  Sectors as the dice number them:
# 1 Tweed to Tees, 2 Tees to the Wash, 3 the Wash to the Stour, 4 Thames estuary and Kent,
# 5 the Channel (Dover to Land's End), 6 Bristol Channel and the Irish Sea up to the Solway.
COAST = [
    (56.05, -2.70, 1), (55.92, -2.14, 1), (55.77, -1.99, 1), (55.68, -1.80, 1), (55.61, -1.70, 1),
    (55.39, -1.60, 1), (55.33, -1.56, 1), (55.02, -1.42, 1), (54.91, -1.37, 1), (54.69, -1.20, 1),
    (54.64, -1.14, 2), (54.62, -1.05, 2), (54.49, -0.61, 2), (54.28, -0.39, 2), (54.12, -0.08, 2),
    (54.08, -0.19, 2), (53.91, -0.16, 2), (53.58, 0.11, 2), (53.42, 0.18, 2), (53.14, 0.34, 2),
    (53.10, 0.33, 3), (52.95, 0.00, 3), (52.80, -0.05, 3), (52.75, 0.20, 3), (52.78, 0.40, 3),
    (52.95, 0.49, 3), (52.96, 1.00, 3), (52.93, 1.30, 3), (52.82, 1.53, 3), (52.61, 1.74, 3),
    (52.48, 1.76, 3), (52.33, 1.68, 3), (52.09, 1.58, 3), (51.96, 1.35, 4), (51.85, 1.27, 4),
    (51.79, 1.15, 4), (51.75, 0.95, 4), (51.60, 0.95, 4), (51.53, 0.71, 4), (51.44, 0.76, 4),
    (51.36, 1.02, 4), (51.38, 1.44, 4), (51.33, 1.42, 4), (51.22, 1.40, 4), (51.12, 1.32, 5),
    (51.08, 1.17, 5), (50.91, 0.97, 5), (50.95, 0.73, 5), (50.85, 0.58, 5), (50.74, 0.24, 5),
    (50.82, -0.14, 5), (50.73, -0.79, 5), (50.80, -0.90, 5), (50.79, -1.10, 5), (50.82, -1.31, 5),
    (50.71, -1.55, 5), (50.72, -1.88, 5), (50.70, -1.98, 5), (50.61, -1.96, 5), (50.58, -2.06, 5),
    (50.56, -2.44, 5), (50.72, -2.94, 5), (50.62, -3.41, 5), (50.45, -3.53, 5), (50.22, -3.64, 5),
    (50.21, -3.79, 5), (50.35, -4.15, 5), (50.35, -4.45, 5), (50.22, -4.80, 5), (49.96, -5.20, 5),
    (50.10, -5.50, 5), (50.07, -5.72, 6), (50.21, -5.48, 6), (50.42, -5.08, 6), (50.54, -4.94, 6),
    (50.67, -4.76, 6), (50.83, -4.55, 6), (51.02, -4.53, 6), (51.05, -4.25, 6), (51.19, -4.21, 6),
    (51.21, -3.47, 6), (51.18, -3.33, 6), (51.21, -3.05, 6), (51.35, -2.98, 6), (51.49, -2.77, 6),
    (51.51, -2.70, 6), (51.62, -2.60, 6), (51.72, -2.48, 6), (51.72, -2.45, 6), (51.64, -2.67, 6),
    (51.55, -2.97, 6), (51.46, -3.17, 6), (51.39, -3.27, 6), (51.40, -3.56, 6), (51.48, -3.70, 6),
    (51.60, -3.93, 6), (51.56, -4.30, 6), (51.70, -4.40, 6), (51.67, -4.70, 6), (51.60, -4.93, 6),
    (51.70, -5.10, 6), (51.90, -5.31, 6), (52.01, -4.98, 6), (52.10, -4.70, 6), (52.22, -4.36, 6),
    (52.41, -4.09, 6), (52.54, -4.05, 6), (52.72, -4.06, 6), (52.88, -4.40, 6), (52.80, -4.72, 6),
    (52.94, -4.55, 6), (53.12, -4.35, 6), (53.20, -4.55, 6), (53.32, -4.65, 6), (53.42, -4.40, 6),
    (53.32, -4.05, 6), (53.33, -3.83, 6), (53.32, -3.49, 6), (53.35, -3.32, 6), (53.25, -3.10, 6),
    (53.40, -3.20, 6), (53.44, -3.05, 6), (53.35, -2.90, 6), (53.55, -3.10, 6), (53.65, -3.02, 6),
    (53.73, -2.95, 6), (53.82, -3.06, 6), (53.92, -3.01, 6), (54.05, -2.85, 6), (54.15, -2.85, 6),
    (54.10, -3.25, 6), (54.20, -3.40, 6), (54.51, -3.64, 6), (54.64, -3.57, 6), (54.71, -3.50, 6),
    (54.87, -3.40, 6), (54.95, -3.20, 6), (54.97, -3.05, 6), (54.98, -3.30, 6), (54.97, -3.60, 6),
    (54.85, -3.80, 6), (54.78, -4.05, 6), (54.70, -4.40, 6), (54.64, -4.86, 6), (54.85, -5.12, 6),
    (55.00, -5.15, 6), (55.24, -4.86, 6), (55.46, -4.63, 6), (55.55, -4.68, 6), (55.80, -4.90, 6),
    (56.05, -4.90, 6),
]

# Estuaries and bays narrower than a hex that the game needs as sea: the hex holding each point is
# sea.  They make the Humber reach Trent Falls, the Wash reach the Fen edge, the Thames estuary
# reach London, the Severn estuary reach past Bristol, the Solway and the Dee show.
FORCED_SEA = [
    (53.68, -0.45), (53.65, -0.28), (53.62, -0.10), (53.72, -0.65),  # Humber
    (52.88, 0.15), (52.92, 0.30), (52.80, 0.15),                # the Wash
    (51.50, 0.55), (51.49, 0.22), (51.55, 0.85),                # Thames estuary
    (51.60, -2.65), (51.40, -3.10),                             # Severn estuary
    (54.92, -3.30), (54.95, -3.55),                             # Solway
    (53.30, -3.15),                                             # Dee
    (50.80, -1.30),                                             # Southampton Water
]
FORCED_LAND = [(55.67, -1.80)]  # Lindisfarne, a tidal island

# Terrain boxes (lat_min, lat_max, lon_min, lon_max), applied in this order.
HILLS = [
    ("Pennines", 53.0, 55.0, -2.6, -1.7), ("Lake District", 54.2, 54.7, -3.4, -2.7),
    ("Cheviots", 55.25, 55.55, -2.5, -1.95), ("North York Moors", 54.25, 54.55, -1.3, -0.6),
    ("Welsh hills", 51.8, 53.3, -4.3, -3.0), ("Dartmoor", 50.45, 50.75, -4.1, -3.75),
    ("Exmoor", 51.05, 51.25, -3.95, -3.45), ("Southern Uplands", 55.1, 56.0, -4.6, -2.6),
    ("South Wales valleys", 51.6, 51.85, -3.9, -3.0), ("Bodmin Moor", 50.5, 50.65, -4.75, -4.45),
]
FOREST = [
    ("Weald", 50.9, 51.25, -0.9, 0.75), ("Sherwood", 53.0, 53.3, -1.25, -1.0),
    ("Forest of Dean", 51.7, 51.9, -2.65, -2.4), ("Selwood", 51.05, 51.25, -2.45, -2.25),
    ("Arden", 52.2, 52.55, -1.9, -1.5), ("Kinver and Wyre", 52.35, 52.5, -2.4, -2.2),
]
WETLAND = [
    ("Fens", 52.3, 53.0, -0.4, 0.4), ("Somerset Levels", 51.0, 51.3, -3.05, -2.7),
    ("Romney Marsh", 50.95, 51.1, 0.75, 1.0),
]
# A box claims a hex whose centre lies within this margin of it, so that boxes smaller than a hex
# still show.
BOX_MARGIN_KM = 3.0

TOWNS = [
    ("Winchester", 51.07, -1.32), ("York", 53.96, -1.09), ("Carlisle", 54.89, -2.93),
    ("London", 51.51, -0.09), ("Lindisfarne", 55.67, -1.80), ("Bamburgh", 55.61, -1.71),
    ("Jarrow", 54.98, -1.48), ("Whitby", 54.49, -0.62), ("Chester", 53.19, -2.88),
    ("Lincoln", 53.23, -0.54), ("Torksey", 53.30, -0.74), ("Nottingham", 52.95, -1.15),
    ("Repton", 52.84, -1.55), ("Derby", 52.92, -1.46), ("Leicester", 52.63, -1.13),
    ("Stamford", 52.65, -0.48), ("Tamworth", 52.64, -1.69), ("Worcester", 52.19, -2.22),
    ("Gloucester", 51.87, -2.24), ("Thetford", 52.42, 0.75), ("Norwich", 52.63, 1.31),
    ("Ipswich", 52.05, 1.14), ("Cambridge", 52.19, 0.14), ("Colchester", 51.89, 0.90),
    ("Canterbury", 51.28, 1.08), ("Rochester", 51.39, 0.51), ("Sandwich", 51.27, 1.34),
    ("Reading", 51.46, -0.97), ("Wallingford", 51.60, -1.12), ("Oxford", 51.75, -1.26),
    ("Chippenham", 51.46, -2.12), ("Bath", 51.38, -2.36), ("Athelney", 51.06, -2.93),
    ("Wareham", 50.69, -2.12), ("Exeter", 50.72, -3.53), ("Southampton", 50.91, -1.41),
    ("Chichester", 50.83, -0.78),
]

RIVERS = [
    ("Thames", [(51.68, -2.02), (51.69, -1.69), (51.75, -1.26), (51.67, -1.28), (51.60, -1.12),
                (51.46, -0.97), (51.49, -0.60), (51.51, -0.09), (51.48, 0.30), (51.50, 0.70)]),
    ("Severn", [(52.49, -3.73), (52.66, -3.15), (52.71, -2.75), (52.53, -2.42), (52.19, -2.22),
                (51.99, -2.16), (51.87, -2.24), (51.72, -2.45), (51.55, -2.70)]),
    ("Trent", [(53.10, -2.10), (53.00, -2.18), (52.80, -1.90), (52.80, -1.63), (52.84, -1.55),
               (52.95, -1.15), (53.08, -0.81), (53.30, -0.74), (53.40, -0.77), (53.70, -0.69)]),
    ("Ouse", [(54.09, -1.40), (53.96, -1.09), (53.78, -1.07), (53.70, -0.87), (53.70, -0.69),
              (53.58, 0.11)]),
    ("Tyne", [(54.97, -2.45), (54.97, -2.10), (54.97, -1.61), (55.01, -1.42)]),
    ("Tees", [(54.70, -2.49), (54.54, -1.92), (54.51, -1.55), (54.50, -1.35), (54.57, -1.32),
              (54.63, -1.15)]),
    ("Avon", [(52.40, -1.00), (52.37, -1.26), (52.28, -1.58), (52.19, -1.71), (52.09, -1.95),
              (51.99, -2.16)]),
    ("Bristol Avon", [(51.58, -2.10), (51.46, -2.12), (51.38, -2.36), (51.45, -2.59),
                      (51.50, -2.70)]),
    ("Great Ouse", [(52.00, -1.10), (52.00, -0.99), (52.14, -0.47), (52.23, -0.27),
                    (52.33, -0.18), (52.40, 0.26), (52.80, 0.37)]),
    ("Nene", [(52.23, -0.90), (52.57, -0.24), (52.66, 0.16), (52.80, 0.20)]),
    ("Eden", [(54.58, -2.49), (54.67, -2.70), (54.89, -2.93), (54.95, -3.10)]),
    ("Wye", [(52.45, -3.70), (52.15, -3.40), (52.05, -2.72), (51.81, -2.71), (51.62, -2.67)]),
    ("Dee", [(52.90, -3.60), (52.97, -3.17), (53.19, -2.88), (53.25, -3.05)]),
    ("Mersey", [(53.40, -2.15), (53.39, -2.59), (53.34, -2.73), (53.40, -2.95)]),
    ("Tamar", [(50.95, -4.45), (50.63, -4.36), (50.40, -4.20)]),
]

# Axial neighbour directions, in the order the engine uses (east, then counter-clockwise).
DIRECTIONS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def to_km(lat, lon):
    return ((lon - WEST) * KM_PER_DEG_LON, (NORTH - lat) * KM_PER_DEG_LAT)


def hex_center_km(q, r):
    return (HEX_KM * (q + r / 2.0), HEX_KM * SQRT3 / 2.0 * r)


def km_to_latlon(x, y):
    return (NORTH - y / KM_PER_DEG_LAT, WEST + x / KM_PER_DEG_LON)


def hex_round(fq, fr):
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (q, r)


def hex_at(lat, lon):
    x, y = to_km(lat, lon)
    fr = y / (HEX_KM * SQRT3 / 2.0)
    fq = x / HEX_KM - fr / 2.0
    return hex_round(fq, fr)


def hex_distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def inside_coast(lat, lon):
    inside = False
    n = len(COAST)
    for i in range(n):
        la1, lo1, _ = COAST[i]
        la2, lo2, _ = COAST[(i + 1) % n]
        if (la1 > lat) != (la2 > lat):
            cross = lo1 + (lat - la1) / (la2 - la1) * (lo2 - lo1)
            if lon < cross:
                inside = not inside
    return inside


def distance_to_segment(p, a, b):
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def nearest_sector(x, y):
    best, sector = None, 0
    n = len(COAST)
    for i in range(n):
        a = to_km(COAST[i][0], COAST[i][1])
        b = to_km(COAST[(i + 1) % n][0], COAST[(i + 1) % n][1])
        d = distance_to_segment((x, y), a, b)
        if best is None or d < best:
            best, sector = d, COAST[i][2]
    return sector


def in_box(x, y, box):
    _, la0, la1, lo0, lo1 = box
    x0, y1 = to_km(la0, lo0)
    x1, y0 = to_km(la1, lo1)
    dx = max(x0 - x, 0.0, x - x1)
    dy = max(y0 - y, 0.0, y - y1)
    return math.hypot(dx, dy) <= BOX_MARGIN_KM


def build():
    # 1. Every hex whose centre lies in the map's rectangle, land or sea by the coastline.
    x_max, y_max = to_km(SOUTH, EAST)
    cells = {}
    r_max = int(y_max / (HEX_KM * SQRT3 / 2.0)) + 1
    for r in range(0, r_max + 1):
        for q in range(-r, int(x_max / HEX_KM) + 2):
            x, y = hex_center_km(q, r)
            if x < 0 or y < 0 or x > x_max or y > y_max:
                continue
            lat, lon = km_to_latlon(x, y)
            if lat > 54.8 and lon < -3.9:
                continue  # Galloway and Ayrshire are off the board
            cells[(q, r)] = "plain" if inside_coast(lat, lon) else "sea"
    for lat, lon in FORCED_SEA:
        cells[hex_at(lat, lon)] = "sea"
    for lat, lon in FORCED_LAND:
        cells[hex_at(lat, lon)] = "plain"

    # 2. Keep the largest land component; drop sea more than SEA_MARGIN hexes from land.
    land = [h for h, t in cells.items() if t != "sea"]
    seen, components = set(), []
    for start in land:
        if start in seen:
            continue
        component, stack = [], [start]
        seen.add(start)
        while stack:
            h = stack.pop()
            component.append(h)
            for dq, dr in DIRECTIONS:
                n = (h[0] + dq, h[1] + dr)
                if n in cells and cells[n] != "sea" and n not in seen:
                    seen.add(n)
                    stack.append(n)
        components.append(component)
    components.sort(key=len, reverse=True)
    for component in components[1:]:
        for h in component:
            cells[h] = "sea"
    land = set(components[0])
    for h in list(cells):
        if cells[h] == "sea" and min(hex_distance(h, l) for l in land) > SEA_MARGIN:
            del cells[h]

    # 3. Terrain.
    for boxes, terrain in ((HILLS, "hills"), (FOREST, "forest"), (WETLAND, "wetland")):
        for box in boxes:
            claimed = 0
            for h in land:
                x, y = hex_center_km(*h)
                if in_box(x, y, box):
                    cells[h] = terrain
                    claimed += 1
            if claimed == 0:
                print(f"warning: {box[0]} claims no hex", file=sys.stderr)

    # 4. Towns.
    towns = {}
    for name, lat, lon in TOWNS:
        h = hex_at(lat, lon)
        if cells.get(h, "sea") == "sea" or h in towns.values():
            x, y = to_km(lat, lon)
            free = [c for c in land if c not in towns.values()]
            h = min(free, key=lambda c: math.dist(hex_center_km(*c), (x, y)))
            print(f"note: {name} moved to the nearest free land hex {h}", file=sys.stderr)
        towns[name] = h

    # 5. Rivers along hexsides.
    rivers = []
    for name, points in RIVERS:
        edges = river_edges(points, cells)
        if not edges:
            print(f"warning: river {name} has no land hexside", file=sys.stderr)
        rivers.append((name, edges))

    # 6. Sea sectors.
    sectors = {}
    for h, t in cells.items():
        if t == "sea":
            sectors[h] = nearest_sector(*hex_center_km(*h))
    return cells, towns, rivers, sectors


def corner_km(q, r, i):
    # Corner i of a pointy-top hex; corner i and i+1 bound the side facing DIRECTIONS[i].
    cx, cy = hex_center_km(q, r)
    size = HEX_KM / SQRT3
    angle = math.radians(60 * i - 30)  # y grows southwards, so sin is negated below
    return (cx + size * math.cos(angle), cy - size * math.sin(angle))


def corner_key(p):
    return (round(p[0], 1), round(p[1], 1))


def river_edges(points, cells):
    # The corner graph: corners are nodes, hexsides are edges labelled with the two hexes they part.
    side_of = {}
    graph = {}
    for (q, r) in cells:
        for i, (dq, dr) in enumerate(DIRECTIONS):
            a = corner_key(corner_km(q, r, i))
            b = corner_key(corner_km(q, r, i + 1))
            pair = tuple(sorted([(q, r), (q + dq, r + dr)]))
            side_of[(a, b)] = side_of[(b, a)] = pair
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
    corners = list(graph)

    def nearest_corner(lat, lon):
        p = to_km(lat, lon)
        return min(corners, key=lambda c: math.dist(c, p))

    path = []
    for (la0, lo0), (la1, lo1) in zip(points, points[1:]):
        start, goal = nearest_corner(la0, lo0), nearest_corner(la1, lo1)
        a_km, b_km = to_km(la0, lo0), to_km(la1, lo1)
        # Dijkstra on corners; a step costs its length plus how far it strays from the segment.
        dist, prev, heap = {start: 0.0}, {}, [(0.0, start)]
        while heap:
            d, c = heapq.heappop(heap)
            if c == goal:
                break
            if d > dist[c]:
                continue
            for n in graph[c]:
                mid = ((c[0] + n[0]) / 2, (c[1] + n[1]) / 2)
                nd = d + math.dist(c, n) + 2.0 * distance_to_segment(mid, a_km, b_km)
                if nd < dist.get(n, float("inf")):
                    dist[n], prev[n] = nd, c
                    heapq.heappush(heap, (nd, n))
        leg, c = [], goal
        while c != start:
            leg.append((prev[c], c))
            c = prev[c]
        path.extend(reversed(leg))
    edges = []
    for a, b in path:
        h1, h2 = side_of[(a, b)]
        if cells.get(h1, "sea") != "sea" and cells.get(h2, "sea") != "sea":
            edge = [h1[0], h1[1], h2[0], h2[1]]
            if edge not in edges:
                edges.append(edge)
    return edges


def main():
    cells, towns, rivers, sectors = build()
    if "--ascii" in sys.argv:
        town_at = {h: n for n, h in towns.items()}
        rows = sorted({r for _, r in cells})
        glyph = {"sea": "~", "plain": ".", "hills": "^", "wetland": "%", "forest": "T"}
        for r in rows:
            line = " " * (r % 2)
            qs = [q for q, rr in cells if rr == r]
            for col in range(0, 40):
                q = col - (r - (r & 1)) // 2
                h = (q, r)
                if h not in cells:
                    line += "  "
                elif h in town_at:
                    line += town_at[h][0] + " "
                elif cells[h] == "sea":
                    line += str(sectors[h]) + " "
                else:
                    line += glyph[cells[h]] + " "
            print(line.rstrip())
        return
    hexes = []
    for (q, r) in sorted(cells, key=lambda h: (h[1], h[0])):
        hexes.append({"q": q, "r": r, "terrain": cells[(q, r)], "sector": sectors.get((q, r), 0)})
    lines = ["{", '  "name": "england-870",',
             f'  "hex_km": {HEX_KM:g},',
             '  "hexes": [']
    lines.append(",\n".join(
        f'    {{"q": {h["q"]}, "r": {h["r"]}, "terrain": "{h["terrain"]}", "sector": {h["sector"]}}}'
        for h in hexes))
    lines.append("  ],")
    lines.append('  "towns": [')
    lines.append(",\n".join(
        f'    {{"name": "{name}", "q": {h[0]}, "r": {h[1]}}}' for name, h in towns.items()))
    lines.append("  ],")
    lines.append('  "rivers": [')
    lines.append(",\n".join(
        f'    {{"name": "{name}", "edges": {json.dumps(edges)}}}' for name, edges in rivers))
    lines.append("  ]")
    lines.append("}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
