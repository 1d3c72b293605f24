# Tests of the simulated platform (SimGrid): determinism, parity with threads, the seeds' findings; include()d from tests/CMakeLists.txt.
add_executable(sim_tests
  ${CMAKE_CURRENT_LIST_DIR}/doctest_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_machine_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_cost_model_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_determinism_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_parity_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_findings_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_replay_test.cpp)
target_link_libraries(sim_tests PRIVATE twinsched_sim twinsched_runtime twinsched_scenarios doctest::doctest)
get_filename_component(twinsched_sim_test_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
target_compile_definitions(sim_tests PRIVATE TWINSCHED_SOURCE_DIR="${twinsched_sim_test_root}")
add_test(NAME sim COMMAND sim_tests)
set_tests_properties(sim PROPERTIES TIMEOUT 1200)

