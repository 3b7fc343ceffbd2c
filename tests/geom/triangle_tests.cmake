# Oracle tests of the triangle kernel family (sphere/segment/swept sphere vs triangle, tri-tri).
# Paths relative to tests/geom.
flak_add_gtest(flak_geom_triangle_tests SOURCES
  sphere_triangle_test.cpp
  segment_triangle_test.cpp
  tri_tri_test.cpp
  swept_sphere_triangle_test.cpp)
