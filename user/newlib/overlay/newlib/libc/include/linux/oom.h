/* Linux's <linux/oom.h> (its UAPI): the range of /proc/PID/oom_score_adj. */
#ifndef _LINUX_OOM_H
#define _LINUX_OOM_H

#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000

/* the old /proc/PID/oom_adj's */
#define OOM_DISABLE (-17)
#define OOM_ADJUST_MIN (-16)
#define OOM_ADJUST_MAX 15

#endif
