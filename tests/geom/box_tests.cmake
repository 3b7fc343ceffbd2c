# Oracle tests of the box kernel family (sphere/segment/triangle vs AABB, AABB-AABB, sphere-sphere,
# capsule-sphere, OBB-OBB). Paths relative to tests/geom.
flak_add_gtest(flak_geom_box_tests SOURCES
  box_aabb_aabb_test.cpp
  box_sphere_aabb_test.cpp
  box_sphere_sphere_test.cpp
  box_triangle_aabb_test.cpp
  box_segment_aabb_test.cpp
  capsule_sphere_test.cpp
  obb_obb_test.cpp)
