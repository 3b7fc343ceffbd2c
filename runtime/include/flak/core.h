// flak — the memory core in one include: status, assert, arena, fixed pools, handles, sizing.
#pragma once

#include <flak/align.h>
#include <flak/arena.h>
#include <flak/assert.h>
#include <flak/fixed_pool.h>
#include <flak/handle.h>
#include <flak/memory_requirements.h>
#include <flak/status.h>
