// flak — everything a game's frame needs, in one include: the World (bodies, step, hits, queries,
// memory), the blobs it reads (meshes, sphere clusters, wall sets), beams, the host's task
// interface and the version. Narrower headers stay available for code that wants less.
#pragma once

#include <flak/blob/blob.h>
#include <flak/bvh/mesh_blob.h>
#include <flak/core.h>
#include <flak/math.h>
#include <flak/shooter/beam.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>
#include <flak/task_system.h>
#include <flak/version.h>
#include <flak/world/world.h>
#include <flak/world/world_query.h>
