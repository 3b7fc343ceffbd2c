# Sources of this kernel family (appended to FLAK_GEOM_SOURCES; paths relative to runtime/).
list(APPEND FLAK_GEOM_SOURCES
  src/geom/point_in_polygon.cpp
  src/geom/circle_polygon.cpp
  src/geom/segment_polygon.cpp
  src/geom/polygon_sat.cpp
  src/geom/convex_shape.cpp
  src/geom/gjk_simplex.cpp
  src/geom/gjk.cpp
  src/geom/gjk_raycast.cpp)
