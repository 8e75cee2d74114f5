/**
 * openLink (YamlOpenLink, OpenLinkCommand; v1.39.10): a VIEW intent for the link. `browser: true`
 * (open it in a browser, not the app that claims it) and `autoVerify: true` (accept the link's
 * verification dialog) are not done here, so they are refused by name; `autoVerify: false` is what
 * droidbus does. Web links and the schemes the app declares only: another app's scheme (tel:,
 * market:, a browser's own carrying javascript:) is not a step of testing this app.
 */
import { checkOpenableUri } from '../../util/uri-scheme.js';
import { FlowError, only, str } from './read.js';
import { command, verbatim } from './command.js';

const WEB_SCHEMES: readonly string[] = ['http', 'https'];

export const openLink = command({
  names: ['openLink'],
  read: (v, map, at) => {
    only(map, ['link', ...(map?.['autoVerify'] === false ? ['autoVerify'] : [])], at);
    const link = map ? str(map['link'], at.where, 'link') : str(v, at.where, 'openLink');
    const checked = checkOpenableUri(link);
    if (!checked.ok) {
      throw new FlowError(`${at.where}: ${checked.message}`);
    }
    if (!WEB_SCHEMES.includes(checked.scheme) && !at.schemes.includes(checked.scheme)) {
      throw new FlowError(
        `${at.where}: openLink opens http(s) links and the schemes ${at.appId} declares in its manifest (${at.schemes.length > 0 ? at.schemes.join(', ') : 'none found in the project'}); '${checked.scheme}:' is refused`,
      );
    }
    return { op: 'open_link' as const, link };
  },
  run: async (op, { device }) => {
    await device.ask('device.send_intent', {
      serial: device.serial,
      mode: 'start',
      action: 'android.intent.action.VIEW',
      data_uri: op.link,
      extras: [],
    });
  },
  writes: ['open_link'],
  write: (step) => ({ openLink: verbatim(step.url) }),
});
