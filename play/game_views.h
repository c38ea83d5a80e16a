#pragma once
// Every game's terminal view: include this rather than the single views, so that each session
// instantiation sees the game's specialisation of GameView.

#include "play/danelaw_view.h"
#include "play/duel_view.h"
#include "play/game_view.h"
#include "play/pig_view.h"
