# Oracle tests of this kernel family: flak_add_gtest(<name> SOURCES geom/<file>.cpp ...)
flak_add_gtest(flak_geom_planar_gjk_tests SOURCES
  polygon_point_test.cpp
  polygon_circle_test.cpp
  polygon_segment_test.cpp
  polygon_sat_test.cpp
  gjk_distance_test.cpp
  gjk_raycast_test.cpp)
