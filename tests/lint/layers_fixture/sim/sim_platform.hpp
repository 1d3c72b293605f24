// Stands in for the simulator's header, so the fixture's relative include resolves.
#pragma once
