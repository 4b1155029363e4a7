// SPDX-License-Identifier: Apache-2.0
// libseccomp, for the system call filter of the sync process (Sandbox.swift).
#ifndef ALARMD_CSECCOMP_SHIM_H
#define ALARMD_CSECCOMP_SHIM_H

#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>

// Function-like macros and variadic calls, which Swift cannot use.
static inline uint32_t alarmd_scmp_act_errno(uint16_t code) { return SCMP_ACT_ERRNO(code); }
static inline uint32_t alarmd_scmp_act_kill_process(void) { return SCMP_ACT_KILL_PROCESS; }
static inline uint32_t alarmd_scmp_act_allow(void) { return SCMP_ACT_ALLOW; }
static inline int alarmd_prctl(int option, unsigned long value) { return prctl(option, value, 0, 0, 0); }

/* socket(2) whose first argument, the address family, is `family`, or
   is at least `family` when `andAbove`: refused with `code`. libseccomp
   takes one comparison per argument in a rule, so a set of families is
   refused one rule each. */
static inline int alarmd_scmp_deny_socket_family(scmp_filter_ctx context, uint16_t code, int family, int andAbove) {
    struct scmp_arg_cmp comparison = { .arg = 0, .op = andAbove ? SCMP_CMP_GE : SCMP_CMP_EQ, .datum_a = (scmp_datum_t)family, .datum_b = 0 };
    return seccomp_rule_add_array(context, SCMP_ACT_ERRNO(code), SCMP_SYS(socket), 1, &comparison);
}

#endif
