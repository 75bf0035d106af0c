/* Arbor overlay: replaces newlib's empty _user_strerror hook.
   newlib's strerror.c switch knows most errno names, but not several Linux
   ones that the Arbor overlay's <sys/errno.h> defines; strerror() and
   perror() fall back to this hook for any number the switch lacks, so the
   missing Linux messages are supplied here.  */

#include <_ansi.h>
#include <errno.h>

char *
_user_strerror (int errnum,
       int internal,
       int *errptr)
{
  (void) internal;
  (void) errptr;

  switch (errnum)
    {
    case ECHRNG:	return "Channel number out of range";
    case EL2NSYNC:	return "Level 2 not synchronized";
    case EL3HLT:	return "Level 3 halted";
    case EL3RST:	return "Level 3 reset";
    case ELNRNG:	return "Link number out of range";
    case EUNATCH:	return "Protocol driver not attached";
    case ENOCSI:	return "No CSI structure available";
    case EL2HLT:	return "Level 2 halted";
    case EBADE:		return "Invalid exchange";
    case EBADR:		return "Invalid request descriptor";
    case EXFULL:	return "Exchange full";
    case ENOANO:	return "No anode";
    case EBADRQC:	return "Invalid request code";
    case EBADSLT:	return "Invalid slot";
    case EBFONT:	return "Bad font file format";
    case EDOTDOT:	return "RFS specific error";
    case ENOTUNIQ:	return "Name not unique on network";
    case EBADFD:	return "File descriptor in bad state";
    case EREMCHG:	return "Remote address changed";
    case ERESTART:	return "Interrupted system call should be restarted";
    case EUSERS:	return "Too many users";
    case EPFNOSUPPORT:	return "Protocol family not supported";
    case ENETUNREACH:	return "Network is unreachable";
    case ETOOMANYREFS:	return "Too many references: cannot splice";
    case ESTALE:	return "Stale file handle";
    case EUCLEAN:	return "Structure needs cleaning";
    case ENOTNAM:	return "Not a XENIX named type file";
    case ENAVAIL:	return "No XENIX semaphores available";
    case EISNAM:	return "Is a named type file";
    case EREMOTEIO:	return "Remote I/O error";
    case EDQUOT:	return "Disk quota exceeded";
    case ENOMEDIUM:	return "No medium found";
    case EMEDIUMTYPE:	return "Wrong medium type";
    case ENOKEY:	return "Required key not available";
    case EKEYEXPIRED:	return "Key has expired";
    case EKEYREVOKED:	return "Key has been revoked";
    case EKEYREJECTED:	return "Key was rejected by service";
    case ERFKILL:	return "Operation not possible due to RF-kill";
    case EHWPOISON:	return "Memory page has hardware error";
    default:		return 0;
    }
}
