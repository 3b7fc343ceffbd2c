# Runs the flak_bake command line the way pipelines do: bake, inspect, verify, determinism, and
# the refusals (non-zero exit, no output file, no temporary left behind).
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/../support/cli_run.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
if(MODE STREQUAL "models")
  # Real meshes of Debian's assimp-testmodels in every input format the baker supports.
  foreach(model IN LISTS MODELS)
    get_filename_component(name "${model}" NAME)
    expect_run(0 ${BAKE} ${MODELS_DIR}/${model} -o ${WORK}/${name}.blob --json)
    string(JSON tris GET "${last_out}" triangles)
    string(JSON bpt GET "${last_out}" bytes_per_triangle)
    message("${name}: ${tris} triangles, ${bpt} bytes/triangle")
    expect_run(0 ${BAKE} verify ${WORK}/${name}.blob)
    expect_run(0 ${BAKE} ${MODELS_DIR}/${model} -o ${WORK}/${name}.again.blob)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/${name}.blob ${WORK}/${name}.again.blob
                    RESULT_VARIABLE same)
    if(NOT same EQUAL 0)
      message(FATAL_ERROR "${name}: two bakes differ")
    endif()
    expect_run(0 ${BAKE} ${MODELS_DIR}/${model} -o ${WORK}/${name}.be.blob --endian big)
    expect_run(0 ${BAKE} verify ${WORK}/${name}.be.blob)
    expect_run(0 ${BAKE} inspect ${WORK}/${name}.be.blob --json)
    string(JSON endian GET "${last_out}" endian)
    if(NOT endian STREQUAL "big")
      message(FATAL_ERROR "${name}: --endian big gave ${endian}")
    endif()
    # Quantized vertices: smaller, verified, and the grid step printed; by default the compact
    # tree (leaves of up to 16), and at most 10 bytes a triangle on a mesh of 1,000 or more.
    expect_run(0 ${BAKE} ${MODELS_DIR}/${model} -o ${WORK}/${name}.q.blob --vertices quantized --json)
    string(JSON mode GET "${last_out}" vertices_mode)
    string(JSON step GET "${last_out}" grid_step 0)
    string(JSON qbpt GET "${last_out}" bytes_per_triangle)
    string(JSON qleaf GET "${last_out}" max_leaf)
    if(NOT mode STREQUAL "quantized" OR NOT step GREATER 0 OR NOT qbpt LESS bpt OR NOT qleaf EQUAL 16)
      message(FATAL_ERROR "${name}: --vertices quantized gave ${last_out}")
    endif()
    if(tris GREATER_EQUAL 1000 AND qbpt GREATER 10)
      message(FATAL_ERROR "${name}: quantized ${qbpt} bytes/triangle, over 10")
    endif()
    message("${name}: quantized ${qbpt} bytes/triangle, grid step x ${step}")
    expect_run(0 ${BAKE} verify ${WORK}/${name}.q.blob)
    # A leaf size given on the command line wins over the quantized default.
    expect_run(0 ${BAKE} ${MODELS_DIR}/${model} -o ${WORK}/${name}.q8.blob --vertices quantized --leaf-size 8 --json)
    string(JSON qleaf GET "${last_out}" max_leaf)
    if(NOT qleaf EQUAL 8)
      message(FATAL_ERROR "${name}: --vertices quantized --leaf-size 8 gave ${last_out}")
    endif()
  endforeach()
  # A memory limit the importer runs into: Assimp catches its reader's bad_alloc and keeps it,
  # and the bake says the limit was reached, not that the file is bad. (An AddressSanitizer build
  # sets no memory limit: its shadow memory would not fit one.)
  if(NOT SANITIZE)
    expect_refusal("ran out of its memory limit" ${BAKE} ${MODELS_DIR}/PLY/Wuson.ply -o ${WORK}/limited.blob
                   --import-memory-mb 8)
  endif()
else()
  # The version, for pipelines that record which baker made a blob.
  expect_run(0 ${BAKE} --version)
  if(NOT last_out MATCHES "^flak_bake ${VERSION} \\(blob format [0-9]+\\)")
    message(FATAL_ERROR "--version printed: ${last_out}")
  endif()
  expect_run(0 ${BAKE} --version --json)
  string(JSON tool_version GET "${last_out}" version)
  string(JSON blob_format GET "${last_out}" blob_format)
  if(NOT tool_version STREQUAL VERSION OR NOT blob_format MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "--version --json printed: ${last_out}")
  endif()
  expect_run(2 ${BAKE} --version --yaml)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/mode.blob --vertices fuzzy)
  if(NOT last_err MATCHES "--vertices must be exact or quantized" OR EXISTS ${WORK}/mode.blob)
    message(FATAL_ERROR "--vertices fuzzy: ${last_err}")
  endif()

  # Refusals: clear message, non-zero exit, and no output file at all.
  file(WRITE ${WORK}/inf_vertex.obj "v 0 0 0\nv 1 0 0\nv 0 -inf 0\nf 1 2 3\n")
  expect_refusal("NaN or infinite coordinate" ${BAKE} ${WORK}/inf_vertex.obj -o ${WORK}/inf_vertex.blob)
  foreach(bad nan_vertex absurd_vertex)
    expect_run(1 ${BAKE} ${DATA}/${bad}.obj -o ${WORK}/${bad}.blob)
    if(EXISTS ${WORK}/${bad}.blob)
      message(FATAL_ERROR "${bad}: an output file was written")
    endif()
    message("${bad}: ${last_err}")
  endforeach()
  if(NOT last_err MATCHES "absurd coordinate")
    message(FATAL_ERROR "no clear message for the absurd coordinate: ${last_err}")
  endif()
  expect_run(1 ${BAKE} ${DATA}/nan_vertex.obj -o ${WORK}/nan_vertex.blob)
  # The message names the file, the mesh and its vertex.
  if(NOT last_err MATCHES "nan_vertex\\.obj: vertex 2 \\(mesh '[^']*', index 0, its vertex 2\\) has a NaN or infinite coordinate")
    message(FATAL_ERROR "no clear message for the NaN coordinate: ${last_err}")
  endif()

  # For pipelines: under --json an error is one JSON object on stderr, naming the files; a usage
  # error too.
  expect_run(1 ${BAKE} ${DATA}/nan_vertex.obj -o ${WORK}/nan_vertex.blob --json)
  string(JSON error_text GET "${last_err}" error)
  string(JSON error_input GET "${last_err}" input)
  string(JSON error_output GET "${last_err}" output)
  string(JSON error_version GET "${last_err}" version)
  if(NOT error_text MATCHES "NaN or infinite" OR NOT error_input STREQUAL "${DATA}/nan_vertex.obj" OR
     NOT error_output STREQUAL "${WORK}/nan_vertex.blob" OR NOT error_version STREQUAL VERSION OR last_out)
    message(FATAL_ERROR "--json error: stdout '${last_out}', stderr '${last_err}'")
  endif()
  expect_run(1 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/no/such/dir/t.blob --json)
  string(JSON error_text GET "${last_err}" error)
  if(NOT error_text MATCHES "No such file or directory")
    message(FATAL_ERROR "an unwritable output does not say why: ${last_err}")
  endif()
  expect_run(2 ${BAKE} ${DATA}/tetra.obj --json)
  string(JSON usage_text GET "${last_err}" usage_error)

  # --quiet: nothing at all on success (a build step); --progress: a line per phase on stderr
  # without a terminal, the import included; the two together are refused.
  expect_run(0 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/quiet.blob --quiet)
  if(last_out OR last_err)
    message(FATAL_ERROR "--quiet printed: '${last_out}' '${last_err}'")
  endif()
  expect_run(0 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/progress.blob --progress --json)
  foreach(phase "importing '" "imported 4 triangles from 1 meshes" "welding" "building BVH 100%" "writing")
    string(FIND "${last_err}" "flak_bake: ${phase}" at)
    if(at LESS 0)
      message(FATAL_ERROR "--progress: no '${phase}' line: ${last_err}")
    endif()
  endforeach()
  string(JSON progress_tris GET "${last_out}" triangles)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/both.blob --progress --quiet)

  # A mesh whose thinnest side is Y looks Y-up: a warning (stderr, exit 0), which --axes silences.
  file(WRITE ${WORK}/yup.obj "v 0 0 0\nv 4 0 0\nv 0 0.5 4\nv 4 0.5 4\nf 1 2 3\nf 2 4 3\n")
  expect_run(0 ${BAKE} ${WORK}/yup.obj -o ${WORK}/yup.blob --quiet)
  if(NOT last_err MATCHES "warning: '.*yup\\.obj' looks Y-up .*--axes x,-z,y")
    message(FATAL_ERROR "no Y-up warning: '${last_err}'")
  endif()
  expect_run(0 ${BAKE} ${WORK}/yup.obj -o ${WORK}/yup.blob --quiet --axes x,y,z)
  if(last_err)
    message(FATAL_ERROR "--axes did not silence the Y-up warning: '${last_err}'")
  endif()
  expect_run(0 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/zup.blob --quiet) # a cube corner: no warning
  if(last_err)
    message(FATAL_ERROR "a Z-up mesh was warned about: '${last_err}'")
  endif()

  # Every field of --json, on bake and on inspect, with the values this input must give. Two
  # objects: "first" is a quad with every corner written twice plus a zero-area triangle; "second"
  # is one triangle. Assimp hands over one vertex per corner, so welding merges 12 corners into
  # 7 positions, and the zero-area triangle is dropped unless --keep-degenerate.
  file(WRITE ${WORK}/two.obj "o first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 0\nv 1 0 0\nv 1 1 0\n"
                             "f 1 2 3\nf 4 6 5\nf 1 2 4\no second\nv 5 5 5\nv 6 5 5\nv 5 6 5\nf 7 8 9\n")
  function(expect_fields json what)
    foreach(pair IN LISTS ARGN)
      string(REPLACE "=" ";" kv "${pair}")
      list(GET kv 0 key)
      list(GET kv 1 want)
      string(JSON got ERROR_VARIABLE missing GET "${json}" ${key})
      if(missing)
        message(FATAL_ERROR "${what}: --json has no ${key}: ${json}")
      endif()
      if(NOT want STREQUAL "*" AND NOT got STREQUAL want)
        message(FATAL_ERROR "${what}: ${key} is ${got}, expected ${want}")
      endif()
    endforeach()
  endfunction()
  set(required bytes=* bytes_per_triangle=* nodes=* depth=* sah_cost=* build_seconds=*)
  expect_run(0 ${BAKE} ${WORK}/two.obj -o ${WORK}/two.blob --json)
  expect_fields("${last_out}" "bake two.obj" triangles=3 vertices=7 dropped_degenerate=1 welded_vertices=5 ${required})
  expect_run(0 ${BAKE} inspect ${WORK}/two.blob --json)
  expect_fields("${last_out}" "inspect two.blob" triangles=3 vertices=7 dropped_degenerate=1 welded_vertices=5
                ${required})
  string(JSON seconds GET "${last_out}" build_seconds)
  if(NOT seconds MATCHES "^0(\\.0*)?$") # bakes are byte-deterministic: no time in the blob
    message(FATAL_ERROR "inspect: build_seconds ${seconds}, expected 0")
  endif()
  expect_run(0 ${BAKE} inspect --json ${WORK}/two.blob) # options in either order
  expect_fields("${last_out}" "inspect --json first" triangles=3)
  # The JSON answers name the tool, its version, the blob format and the files.
  expect_fields("${last_out}" "inspect --json names" version=${VERSION} blob_format=2 input=${WORK}/two.blob)
  expect_run(0 ${BAKE} ${WORK}/two.obj -o ${WORK}/two.blob --json)
  expect_fields("${last_out}" "bake --json names" tool=flak_bake input=${WORK}/two.obj output=${WORK}/two.blob)
  # verify --json: one object on stdout, pass or fail.
  expect_run(0 ${BAKE} verify ${WORK}/two.blob --json)
  expect_fields("${last_out}" "verify --json" ok=ON triangles=3 input=${WORK}/two.blob)
  string(JSON problem_count LENGTH "${last_out}" problems)
  if(NOT problem_count EQUAL 0)
    message(FATAL_ERROR "verify --json of a good blob lists problems: ${last_out}")
  endif()
  expect_run(2 ${BAKE} inspect ${WORK}/two.blob ${WORK}/two.blob)
  expect_run(2 ${BAKE} inspect ${WORK}/two.blob --jsno)
  expect_run(0 ${BAKE} ${WORK}/two.obj -o ${WORK}/two.blob --json --keep-degenerate)
  expect_fields("${last_out}" "--keep-degenerate" triangles=4 dropped_degenerate=0)
  # Selecting a mesh by name or index, or a node's subtree.
  expect_run(0 ${BAKE} ${WORK}/two.obj -o ${WORK}/two.blob --json --mesh second)
  expect_fields("${last_out}" "--mesh second" triangles=1 vertices=3 welded_vertices=0)
  expect_run(0 ${BAKE} ${WORK}/two.obj -o ${WORK}/two.blob --json --mesh 0)
  expect_fields("${last_out}" "--mesh 0" triangles=2 vertices=4 dropped_degenerate=1)
  expect_run(0 ${BAKE} ${WORK}/two.obj -o ${WORK}/two.blob --json --node second)
  expect_fields("${last_out}" "--node second" triangles=1 vertices=3)
  expect_refusal("no triangle meshes selected" ${BAKE} ${WORK}/two.obj -o ${WORK}/none.blob --mesh nosuch)
  # One value that selects nothing (a typo beside a good one) stops the bake, naming the value.
  expect_refusal("--mesh 'secnod' selects no triangle mesh in '.*two.obj'" ${BAKE} ${WORK}/two.obj
                 -o ${WORK}/typo.blob --mesh second --mesh secnod)
  expect_refusal("--mesh '7' selects no triangle mesh" ${BAKE} ${WORK}/two.obj -o ${WORK}/typo.blob
                 --mesh 0 --mesh 7)
  expect_run(1 ${BAKE} ${WORK}/missing.obj -o ${WORK}/missing.blob)
  # A path holding 'bad_alloc' is not taken for the importer running out of memory.
  file(MAKE_DIRECTORY ${WORK}/bad_alloc)
  expect_refusal("cannot import" ${BAKE} ${WORK}/bad_alloc/missing.obj -o ${WORK}/missing.blob)
  if(last_err MATCHES "memory limit")
    message(FATAL_ERROR "a missing file in a bad_alloc folder reported as the memory limit:\n${last_err}")
  endif()
  expect_refusal("--mesh 'bad_alloc' selects no triangle mesh" ${BAKE} ${WORK}/two.obj -o ${WORK}/typo.blob
                 --mesh second --mesh bad_alloc)
  expect_refusal("no node named 'bad_alloc'" ${BAKE} ${WORK}/two.obj -o ${WORK}/typo.blob --node bad_alloc)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --leaf-size 99)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --leaf-size 2.5)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --node-cost 0)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --node-cost 1e-50) # 0 as a float
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --node-cost 1001)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --node-cost 1e300) # beyond float
  # --json as the value of another option asks for no JSON: the error is the usual line.
  expect_run(1 ${BAKE} ${WORK}/missing.obj -o --json)
  if(NOT last_err MATCHES "^flak_bake: error: ")
    message(FATAL_ERROR "-o --json took the output's name for --json:\n${last_err}")
  endif()
  # Numbers are the whole argument and finite: a typo or an infinity is refused as a bad number.
  foreach(bad "4x" "inf" "1e400" " 2")
    expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --scale "${bad}")
    if(NOT last_err MATCHES "bad number for --scale")
      message(FATAL_ERROR "--scale '${bad}' not refused as a bad number:\n${last_err}")
    endif()
  endforeach()
  # A scale that takes coordinates beyond float: refused as infinite, not cast.
  expect_refusal("NaN or infinite coordinate" ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --scale 1e300)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --axes x,x,y)
  # Y-up to Z-up and doubled: the tetrahedron (0..1 on each axis) becomes x in [0, 2], y in
  # [-2, 0], z in [0, 2].
  expect_run(0 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/t.blob --axes x,-z,y --scale 2 --json)
  expect_fields("${last_out}" "tetra --axes x,-z,y --scale 2" triangles=4 bounds=*)
  string(JSON bounds GET "${last_out}" bounds)
  string(REGEX REPLACE "[][ ]" "" bounds "${bounds}")
  if(NOT bounds STREQUAL "0,-2,0,2,-0,2" AND NOT bounds STREQUAL "0,-2,0,2,0,2")
    message(FATAL_ERROR "tetra --axes x,-z,y --scale 2: bounds ${bounds}")
  endif()
  file(WRITE ${WORK}/garbage.blob "this is not a blob at all, just text that is long enough.......")
  expect_run(1 ${BAKE} verify ${WORK}/garbage.blob)

  # Output paths: only a new name or a regular file other than the input; the refusal names why
  # and comes before any work.
  file(COPY ${DATA}/tetra.obj DESTINATION ${WORK}/self)
  file(SHA256 ${WORK}/self/tetra.obj before)
  expect_run(1 ${BAKE} ${WORK}/self/tetra.obj -o ${WORK}/self/tetra.obj)
  file(SHA256 ${WORK}/self/tetra.obj after)
  if(NOT before STREQUAL after OR NOT last_err MATCHES "is the input")
    message(FATAL_ERROR "baking over the input: not refused or the input changed (${last_err})")
  endif()
  expect_refusal("character device" ${BAKE} ${DATA}/tetra.obj -o /dev/null)
  file(MAKE_DIRECTORY ${WORK}/adir)
  expect_refusal("is a directory" ${BAKE} ${DATA}/tetra.obj -o ${WORK}/adir)
  expect_refusal("No such file or directory" ${BAKE} ${DATA}/tetra.obj -o ${WORK}/no/such/dir/t.blob)
  expect_run(0 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/over.blob)
  expect_run(0 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/over.blob --endian big) # over a regular file
  expect_run(0 ${BAKE} inspect ${WORK}/over.blob --json)
  string(JSON endian GET "${last_out}" endian)
  if(NOT endian STREQUAL "big")
    message(FATAL_ERROR "baking over an existing blob did not replace it")
  endif()

  # inspect and verify read only regular, non-empty files of a blob's size.
  file(WRITE ${WORK}/empty.blob "")
  foreach(target ${WORK}/empty.blob /dev/zero /dev/null ${WORK}/adir)
    foreach(cmd inspect verify)
      expect_refusal("is empty|character device|is a directory" ${BAKE} ${cmd} ${target})
    endforeach()
  endforeach()

  # Nothing left to bake: an error naming the cause, unless --allow-empty.
  file(WRITE ${WORK}/flat.obj "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n")
  expect_refusal("zero area" ${BAKE} ${WORK}/flat.obj -o ${WORK}/flat.blob)
  file(WRITE ${WORK}/small.obj "v 0 0 0\nv 1e-30 0 0\nv 0 1e-30 0\nv 0 0 1e-30\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n")
  expect_refusal("zero area after --scale" ${BAKE} ${WORK}/small.obj -o ${WORK}/gone.blob --scale 1e-300)
  expect_run(0 ${BAKE} ${WORK}/flat.obj -o ${WORK}/flat.blob --allow-empty)
  # Tiny and denormal extents bake and verify.
  expect_run(0 ${BAKE} ${WORK}/small.obj -o ${WORK}/small.blob)
  expect_run(0 ${BAKE} verify ${WORK}/small.blob)
  file(WRITE ${WORK}/denormal.obj "v 0 0 0\nv 1e-39 0 0\nv 0 1e-39 0\nv 0 0 1e-39\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n")
  expect_run(0 ${BAKE} ${WORK}/denormal.obj -o ${WORK}/denormal.blob)
  expect_run(0 ${BAKE} verify ${WORK}/denormal.blob)
  expect_run(2 ${BAKE} ${DATA}/tetra.obj -o ${WORK}/x.blob --max-coord 1e13)
  # A vertex at the format's coordinate limit, quantized: the grid's last point lies past the
  # limit here, and the vertex snaps below it (it snapped past, and the blob did not load).
  file(WRITE ${WORK}/limit.obj "v -21948827648 0 0\nv 1099511627776 0 0\nv 0 1 1\nf 1 2 3\n")
  expect_run(0 ${BAKE} ${WORK}/limit.obj -o ${WORK}/limit.blob --max-coord 1099511627776 --vertices quantized)
  expect_run(0 ${BAKE} verify ${WORK}/limit.blob)
  # With walls, a mesh of no triangle left is refused all the same (it wrote an empty mesh).
  file(WRITE ${WORK}/flat_arena.walls "polygon\n0 0\n4 0\n4 4\n0 4\n")
  expect_refusal("zero area" ${BAKE} ${WORK}/flat.obj -o ${WORK}/flat_walls.blob --walls ${WORK}/flat_arena.walls)
  expect_run(0 ${BAKE} ${WORK}/flat.obj -o ${WORK}/flat_walls.blob --walls ${WORK}/flat_arena.walls --allow-empty)

  # Hostile files for the importer: it runs in a child process, so a crash, a stack overflow or
  # a runaway becomes one line naming the file, exit 1, and no output.
  file(WRITE ${WORK}/cut.ply "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
       "property float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\n"
       "end_header\n0123456789")
  set(chain "")
  foreach(i RANGE 1 19999)
    string(APPEND chain "{\"children\":[${i}]},")
  endforeach()
  file(WRITE ${WORK}/deep.gltf "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
       "\"nodes\":[${chain}{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
       "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
       "\"min\":[0,0,0],\"max\":[1,1,0]}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
       "\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/octet-stream;base64,"
       "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]}")
  # A triangle under `count` distinct materials, written a thousand lines at a time (appending
  # to one long CMake string is quadratic).
  function(write_materials path count)
    file(WRITE ${path} "v 0 0 0\nv 1 0 0\nv 0 1 0\n")
    foreach(chunk RANGE 1 ${count} 1000)
      set(lines "")
      math(EXPR last "${chunk} + 999")
      foreach(i RANGE ${chunk} ${last})
        string(APPEND lines "usemtl m${i}\nf 1 2 3\n")
      endforeach()
      file(APPEND ${path} "${lines}")
    endforeach()
  endfunction()
  write_materials(${WORK}/materials.obj 30000)
  foreach(case "cut.ply" "deep.gltf" "materials.obj;--import-memory-mb;300;--import-seconds;1")
    list(POP_FRONT case file)
    set(limits ${case})
    expect_run(1 ${BAKE} ${WORK}/${file} -o ${WORK}/hostile.blob ${limits})
    string(REGEX MATCHALL "\n" lines "${last_err}")
    list(LENGTH lines line_count)
    if(EXISTS ${WORK}/hostile.blob OR NOT last_err MATCHES "${file}" OR line_count GREATER 1 OR
       NOT last_err MATCHES "importer (crashed|aborted|failed|ran out of its memory|took longer)")
      message(FATAL_ERROR "${file}: not one line naming the file and the cause (${last_err})")
    endif()
    message("${file}: ${last_err}")
  endforeach()

  # GLB files whose lengths lie (header and chunk claim about 2 GiB; the file is a hundred bytes):
  # one line naming the file, exit 1, no output. The importer's claim on memory meets the limit
  # at once (an ASan build sets none, and then the time limit ends it).
  foreach(file lying_json_chunk.glb lying_bin_chunk.glb)
    expect_run(1 ${BAKE} ${DATA}/${file} -o ${WORK}/lying.blob --import-memory-mb 256 --import-seconds 5)
    string(REGEX MATCHALL "\n" lines "${last_err}")
    list(LENGTH lines line_count)
    if(EXISTS ${WORK}/lying.blob OR NOT last_err MATCHES "${file}" OR line_count GREATER 1)
      message(FATAL_ERROR "${file}: not one line naming the file (${last_err})")
    endif()
    message("${file}: ${last_err}")
  endforeach()

  # A baker stopped (SIGTERM) while the importer works takes the importer with it: no process of
  # it is left running on to its limits.
  write_materials(${WORK}/slow_import.obj 60000)
  execute_process(COMMAND timeout --signal=TERM 1 ${BAKE} ${WORK}/slow_import.obj -o ${WORK}/slow.blob
                          --import-memory-mb 0 --import-seconds 0
                  RESULT_VARIABLE stopped OUTPUT_QUIET ERROR_QUIET)
  if(NOT stopped EQUAL 124)
    message(FATAL_ERROR "the slow import was not still running after 1 s (exit ${stopped})")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1)
  file(GLOB processes /proc/[0-9]*/cmdline)
  string(HEX "${WORK}/slow_import.obj" needle) # this build tree's file: other trees' tests may run
  foreach(cmdline IN LISTS processes)
    file(READ ${cmdline} args HEX)
    if(args MATCHES "${needle}")
      message(FATAL_ERROR "the importer outlived the stopped baker (${cmdline})")
    endif()
  endforeach()
  if(EXISTS ${WORK}/slow.blob)
    message(FATAL_ERROR "a stopped bake left an output")
  endif()
  # --progress reports a long import while it runs (here until its 2 s limit ends it).
  expect_run(1 ${BAKE} ${WORK}/slow_import.obj -o ${WORK}/slow.blob --progress --import-memory-mb 0
             --import-seconds 2)
  if(NOT last_err MATCHES "flak_bake: importing: 1 s\n")
    message(FATAL_ERROR "--progress said nothing during a long import: ${last_err}")
  endif()

  file(GLOB_RECURSE leftovers ${WORK}/*.tmp.* ${WORK}/.*flak-tmp*)
  if(leftovers)
    message(FATAL_ERROR "temporary files left behind: ${leftovers}")
  endif()
  message("baker command line: all refusals and options behave")
endif()
