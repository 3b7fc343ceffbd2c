# Sources of this kernel family (appended to FLAK_GEOM_SOURCES; paths relative to runtime/).
list(APPEND FLAK_GEOM_SOURCES
  src/geom/sphere_sphere.cpp
  src/geom/sphere_aabb.cpp
  src/geom/segment_aabb.cpp
  src/geom/capsule_sphere.cpp
  src/geom/obb_obb.cpp
  src/geom/triangle_aabb.cpp)
