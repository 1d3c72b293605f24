# Tests of traces (doctest: format, damaged files, recorded runs, diff, Perfetto export, stepping) and of the trace subcommands; include()d from tests/CMakeLists.txt.
add_executable(traces_tests
  ${CMAKE_CURRENT_LIST_DIR}/doctest_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traces_format_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traces_damage_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traces_recorder_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traces_run_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traces_perfetto_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traces_step_test.cpp)
target_link_libraries(traces_tests PRIVATE twinsched_runtime twinsched_traces twinsched_scenarios doctest::doctest
                                           nlohmann_json::nlohmann_json)
add_test(NAME traces COMMAND traces_tests --test-suite-exclude=concurrency)
add_test(NAME traces_concurrency COMMAND traces_tests --test-suite=concurrency)
set_tests_properties(traces traces_concurrency PROPERTIES TIMEOUT 600)
set_tests_properties(traces_concurrency PROPERTIES LABELS concurrency)
add_test(NAME traces_cli COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/traces_cli_test.sh $<TARGET_FILE:twinsched>)
set_tests_properties(traces_cli PROPERTIES TIMEOUT 300)
add_test(NAME traces_step_cli COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/step_cli_test.sh $<TARGET_FILE:twinsched>)
set_tests_properties(traces_step_cli PROPERTIES TIMEOUT 300)
