/* The controller registry: one line per controller, in Linux's subsystem
 * order (the order cgroup.controllers lists them); each controller's bit
 * is CG_BIT(its index here). Host tests link their own registry. */
#include "controller.h"

extern const struct cg_controller cg_pids;

const struct cg_controller *const cg_controllers[] = { &cg_pids };
const unsigned cg_nr_controllers = ARRAY_SIZE(cg_controllers);
_Static_assert(ARRAY_SIZE(cg_controllers) <= CG_CONTROLLERS_MAX, "room in struct cgroup");
