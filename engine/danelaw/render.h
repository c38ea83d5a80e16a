#pragma once
// Pictures of the danelaw map: a text map for the terminal (state_to_string and `sling play`) and
// an SVG to print and play on (`sling render danelaw`).  With a state, both show the armies and
// which side controls each town.

#include <string>

#include "engine/danelaw/map.h"

namespace sling::danelaw {

class DanelawGame;
struct State;

// The map as text, one line per hex row.  Each hex is two characters: the first is an army
// (D Danish, E English field army, M militia) or the terrain (~ sea, . plain, ^ hills,
// % wetland, & forest); the second is a town (@ held by the English, * held by the Danes), the sea
// sector's number, or the terrain again.  A legend lists the towns under the map.
std::string text_map(const DanelawGame& game, const State* state);

// The map as a standalone SVG document.
std::string svg_map(const DanelawGame& game, const State* state);

}  // namespace sling::danelaw
