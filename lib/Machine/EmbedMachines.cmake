# Writes OUT: one {"name", R"(yaml)"} entry per file in FILES.
set(Body "")
foreach(F ${FILES})
  get_filename_component(Name "${F}" NAME_WE)
  file(READ "${F}" Text)
  string(APPEND Body "{\"${Name}\", R\"ROOFLINEYAML(${Text})ROOFLINEYAML\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "${Body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
