#pragma once
// Every game's terminal view: include this rather than the single views, so that each session
// instantiation sees the game's specialisation of GameView.

#include "experiments/play/duel_view.h"
#include "experiments/play/game_view.h"
#include "experiments/play/pig_view.h"
#if __has_include("engine/danelaw/danelaw.h")
#include "experiments/play/danelaw_view.h"
#endif
