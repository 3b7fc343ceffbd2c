// flak — the math layer in one include: vectors, matrices, quaternions, transforms, bounds.
#pragma once

#include <flak/math/aabb.h>
#include <flak/math/mat33.h>
#include <flak/math/obb.h>
#include <flak/math/quat.h>
#include <flak/math/simd.h>
#include <flak/math/sphere.h>
#include <flak/math/transform.h>
#include <flak/math/vec2.h>
#include <flak/math/vec3.h>
#include <flak/math/vec4.h>
