/*
 * peerUid(fd): the uid of the process at the other end of a connected unix socket, so the droidbus
 * host can drop connections from other users. Node has no API for it. Linux: getsockopt
 * SO_PEERCRED; macOS and the BSDs: getpeereid. Built by scripts/build-native.mjs with the C
 * compiler and the headers of the Node.js that runs the build; optional (the host falls back to
 * the socket's 0600 mode in the 0700 data directory when it is missing).
 */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#include <node_api.h>

static napi_value throw_errno(napi_env env, int err) {
  napi_throw_error(env, NULL, strerror(err));
  return NULL;
}

static napi_value peer_uid(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    napi_throw_type_error(env, NULL, "peerUid(fd) needs a file descriptor");
    return NULL;
  }
  double uid;
#if defined(__linux__)
  struct ucred cred;
  socklen_t len = sizeof(cred);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
    return throw_errno(env, errno);
  }
  uid = (double)cred.uid;
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
  uid_t euid;
  gid_t egid;
  if (getpeereid(fd, &euid, &egid) != 0) {
    return throw_errno(env, errno);
  }
  uid = (double)euid;
#else
  napi_throw_error(env, NULL, "peer credentials are not supported on this platform");
  return NULL;
#endif
  napi_value result;
  napi_create_double(env, uid, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "peerUid", NAPI_AUTO_LENGTH, peer_uid, NULL, &fn);
  napi_set_named_property(env, exports, "peerUid", fn);
  return exports;
}
