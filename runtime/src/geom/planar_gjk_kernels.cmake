# Sources of this kernel family (appended to FLAK_GEOM_SOURCES; paths relative to runtime/).
list(APPEND FLAK_GEOM_SOURCES)
