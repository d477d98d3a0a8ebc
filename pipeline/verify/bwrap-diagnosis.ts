// Why bwrap cannot build the sandbox here, from what it printed, and the fix: above all the
// unprivileged user namespace restriction of Ubuntu 23.10+ (GitHub's ubuntu-latest runners), where
// AppArmor's kernel.apparmor_restrict_unprivileged_userns=1 denies bwrap its namespace. Pure.

/** The sysctl that lets unprivileged programs (bwrap) create user namespaces again. */
export const APPARMOR_SYSCTL = 'kernel.apparmor_restrict_unprivileged_userns';

export interface BwrapDiagnosis {
  /** What stops bwrap, in a few words. */
  cause: string;
  /** Lines that say how to fix it (each one a hint). */
  fixes: string[];
}

/** bwrap's lines when the kernel or an LSM refuses the user namespace (or its uid map, or the loopback it sets up in it). */
const NAMESPACE_DENIED = [
  /setting up uid map: Permission denied/i,
  /No permissions to create new namespace/i,
  /loopback: Failed RTM_NEWADDR: Operation not permitted/i,
  /Creating new namespace failed: Operation not permitted/i,
  /unshare failed: Operation not permitted/i,
];
const NAMESPACE_LIMIT = /nesting depth or \/proc\/sys\/user\/max_\S+_namespaces exceeded|No space left on device/i;

/**
 * The diagnosis of a failed probe from bwrap's stderr, or null when it is not one this knows.
 * `restricted` is the value of /proc/sys/kernel/apparmor_restrict_unprivileged_userns (null when absent).
 */
export function diagnoseBwrapFailure(stderr: string, restricted: string | null): BwrapDiagnosis | null {
  if (NAMESPACE_DENIED.some((pattern) => pattern.test(stderr))) {
    const apparmor = restricted?.trim() === '1';
    return {
      cause: apparmor
        ? `unprivileged user namespaces are restricted by AppArmor (${APPARMOR_SYSCTL}=1, the default of Ubuntu 23.10 and later and of GitHub's ubuntu-latest)`
        : `unprivileged user namespaces are not allowed here (on Ubuntu 23.10 and later, and GitHub's ubuntu-latest: AppArmor's ${APPARMOR_SYSCTL}=1)`,
      fixes: [
        `allow them for bwrap: sudo sysctl -w ${APPARMOR_SYSCTL}=0 (in CI, a step before verify), or give ` +
          'bwrap an AppArmor profile that allows userns (docs/verify.md, "When bwrap cannot start")',
        'on other systems: sudo sysctl -w kernel.unprivileged_userns_clone=1 (older Debian), or ask for user ' +
          'namespaces in the container (docker run --security-opt seccomp=unconfined, or a privileged runner)',
      ],
    };
  }
  if (NAMESPACE_LIMIT.test(stderr))
    return {
      cause: 'no user namespaces may be created here (user.max_user_namespaces is 0, or a container forbids nesting)',
      fixes: ['allow them: sudo sysctl -w user.max_user_namespaces=15000 (or run verify outside this container)'],
    };
  return null;
}
