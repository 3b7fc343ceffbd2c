# Sources of this kernel family (appended to FLAK_GEOM_SOURCES; paths relative to runtime/).
list(APPEND FLAK_GEOM_SOURCES
  src/geom/sphere_sphere.cpp
  src/geom/triangle_normal.cpp
  src/geom/closest_point_triangle.cpp
  src/geom/sphere_triangle.cpp
  src/geom/segment_triangle.cpp
  src/geom/tri_tri.cpp
  src/geom/tri_tri_intersection.cpp
  src/geom/swept_sphere_triangle.cpp)
