/** The environment adbd gives a shell. */
export const SHELL_ENV: ReadonlyMap<string, string> = new Map([
  [
    'PATH',
    '/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin',
  ],
  ['HOME', '/'],
  ['SHELL', '/bin/sh'],
  ['USER', 'shell'],
  ['LOGNAME', 'shell'],
  ['HOSTNAME', 'localhost'],
  ['TERM', 'dumb'],
  ['TMPDIR', '/data/local/tmp'],
  ['ANDROID_DATA', '/data'],
  ['ANDROID_ROOT', '/system'],
  ['ANDROID_STORAGE', '/storage'],
  ['EXTERNAL_STORAGE', '/sdcard'],
  ['ASEC_MOUNTPOINT', '/mnt/asec'],
  ['BOOTCLASSPATH', '/apex/com.android.art/javalib/core-oj.jar:/system/framework/framework.jar'],
]);
