/* Arbor overlay: <sys/poll.h> (an alias some programs include), which
   newlib 3.3.0 lacks; everything is in <poll.h>.  */
#include <poll.h>
