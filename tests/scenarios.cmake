# Tests of the scenario loader (doctest) and of the CLI's exit codes; include()d from tests/CMakeLists.txt.
add_executable(scenario_tests
  ${CMAKE_CURRENT_LIST_DIR}/doctest_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario_loader_test.cpp)
target_link_libraries(scenario_tests PRIVATE twinsched_scenarios twinsched_watch doctest::doctest)
get_filename_component(twinsched_test_scenario_dir "${CMAKE_CURRENT_LIST_DIR}/../scenarios" ABSOLUTE)
target_compile_definitions(scenario_tests PRIVATE TWINSCHED_SCENARIO_DIR="${twinsched_test_scenario_dir}")
add_test(NAME scenario_loader COMMAND scenario_tests)
add_test(NAME cli_errors COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_test.sh $<TARGET_FILE:twinsched>)
