# Oracle tests of this kernel family: flak_add_gtest(<name> SOURCES geom/<file>.cpp ...)
