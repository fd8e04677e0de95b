// arbiter-landlock: runs a program confined by Landlock (Linux 5.13+), the
// kernel's unprivileged file-access control, for the system clang where user
// and mount namespaces are refused (Docker's and containerd's default seccomp
// profiles refuse unshare and mount, and allow the landlock_* calls). Built by
// src/sandbox/languages/cpp/confine.ts with the system clang itself.
//
//   arbiter-landlock [--read PATH]... [--write DIR]... -- /abs/program args...
//
// After it, the program and every process it starts may open nothing but the
// PATHs (read and execute) and the DIRs (read, create, write, remove beneath
// them): no /proc, /etc, /dev, home, data or project files, whatever the
// program asks for. Where the kernel knows them it also refuses TCP binds and
// connects (ABI 4) and signals and abstract unix sockets leaving the domain
// (ABI 6). The restriction is inherited and cannot be lifted (no_new_privs).
// Exit 125 (a message on stderr) when Landlock cannot be enforced here, 126
// when the program cannot be run.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

// The kernel's ABI, spelled here (older headers lack the later fields).
#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_REMOVE_DIR (1ULL << 4)
#define FS_REMOVE_FILE (1ULL << 5)
#define FS_MAKE_DIR (1ULL << 7)
#define FS_MAKE_REG (1ULL << 8)
#define FS_REFER (1ULL << 13)
#define FS_TRUNCATE (1ULL << 14)
#define FS_IOCTL_DEV (1ULL << 15)
#define NET_BIND_TCP (1ULL << 0)
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)
#define CREATE_RULESET_VERSION (1U << 0)
#define RULE_PATH_BENEATH 1

struct ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

/** Rights a rule on a file (not a directory) may carry. */
#define FILE_RIGHTS (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)

static int fail(int code, const char *what, const char *path) {
  fprintf(stderr, "arbiter-landlock: %s%s%s: %s\n", what, path ? " " : "", path ? path : "", strerror(errno));
  return code;
}

static int add(int ruleset, const char *path, uint64_t access, uint64_t handled) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return fail(125, "cannot open", path);
  struct stat st;
  if (fstat(fd, &st) != 0) return fail(125, "cannot stat", path);
  struct path_beneath_attr rule = {.allowed_access = access & handled & (S_ISDIR(st.st_mode) ? ~0ULL : FILE_RIGHTS), .parent_fd = fd};
  if (syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0) != 0) return fail(125, "cannot add a rule for", path);
  close(fd);
  return 0;
}

int main(int argc, char **argv) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
  if (abi < 1) return fail(125, "Landlock is not available", NULL);
  if (argc == 2 && strcmp(argv[1], "--abi") == 0) {
    printf("%ld\n", abi);
    return 0;
  }
  struct ruleset_attr attr = {0};
  attr.handled_access_fs = (1ULL << 13) - 1;
  if (abi >= 2) attr.handled_access_fs |= FS_REFER;
  if (abi >= 3) attr.handled_access_fs |= FS_TRUNCATE;
  if (abi >= 5) attr.handled_access_fs |= FS_IOCTL_DEV;
  size_t size = sizeof attr.handled_access_fs;
  if (abi >= 4) {
    // Handled and never allowed: no TCP at all.
    attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
    size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
    size = sizeof attr;
  }
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) return fail(125, "cannot create a Landlock ruleset", NULL);
  const uint64_t read = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;
  const uint64_t write = FS_READ_FILE | FS_READ_DIR | FS_WRITE_FILE | FS_REMOVE_FILE | FS_REMOVE_DIR | FS_MAKE_DIR | FS_MAKE_REG | FS_REFER | FS_TRUNCATE;
  int i = 1;
  while (i < argc && strcmp(argv[i], "--") != 0) {
    if (i + 1 >= argc) {
      errno = EINVAL;
      return fail(125, "a path must follow", argv[i]);
    }
    int r;
    if (strcmp(argv[i], "--read") == 0) r = add(ruleset, argv[i + 1], read, attr.handled_access_fs);
    else if (strcmp(argv[i], "--write") == 0) r = add(ruleset, argv[i + 1], write, attr.handled_access_fs);
    else {
      errno = EINVAL;
      return fail(125, "unknown option", argv[i]);
    }
    if (r) return r;
    i += 2;
  }
  if (i + 1 >= argc || argv[i + 1][0] != '/') {
    errno = EINVAL;
    return fail(125, "usage: arbiter-landlock [--read PATH]... [--write DIR]... -- /abs/program args...", NULL);
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(125, "cannot set no_new_privs", NULL);
  if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) return fail(125, "cannot enforce the Landlock ruleset", NULL);
  close(ruleset);
  execv(argv[i + 1], argv + i + 1);
  return fail(126, "cannot run", argv[i + 1]);
}
