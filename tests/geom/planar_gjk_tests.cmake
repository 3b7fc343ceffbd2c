# Oracle tests of the planar and GJK kernel family (point/circle/segment vs polygon, polygon SAT,
# GJK distance and shape cast). Paths relative to tests/geom.
flak_add_gtest(flak_geom_planar_gjk_tests SOURCES
  polygon_point_test.cpp
  polygon_circle_test.cpp
  polygon_segment_test.cpp
  polygon_sat_test.cpp
  gjk_distance_test.cpp
  gjk_raycast_test.cpp)
