/* The controller registry: one line per controller, in Linux's subsystem
 * order (the order cgroup.controllers lists them); each controller's bit
 * is CG_BIT(its index here), set at boot. Host tests link their own. */
#include "controller.h"

extern struct cg_controller cg_cpuset, cg_cpu, cg_io, cg_memory, cg_pids, cg_misc;

struct cg_controller *const cg_controllers[] = { &cg_cpuset, &cg_cpu, &cg_io, &cg_memory, &cg_pids, &cg_misc };
const unsigned cg_nr_controllers = ARRAY_SIZE(cg_controllers);
_Static_assert(ARRAY_SIZE(cg_controllers) <= CG_CONTROLLERS_MAX, "room in struct cgroup");
