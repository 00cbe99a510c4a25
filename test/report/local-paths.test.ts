import { homedir, tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { argvForReport, hideLocalPaths, pathForReport } from '../../lib/report/local-paths.ts';
import { PACKAGE_ROOT } from '../../lib/package-root.ts';

describe('hideLocalPaths', () => {
  test('the package, the working folder, node, the temp folder and home become stand-ins', () => {
    const root = PACKAGE_ROOT.replace(/\/+$/, '');
    const text = `${root}/bin/asi-conformance.js ${process.execPath} /srv/work/profile.yaml ${tmpdir()}/asi-1/r ${homedir()}/x`;
    const out = hideLocalPaths(text, '/srv/work');
    expect(out).toBe('<asi-conformance>/bin/asi-conformance.js node ./profile.yaml <tmp>/asi-1/r ~/x');
  });

  test('a folder that is only the start of a longer name is left alone', () => {
    expect(hideLocalPaths('/srv/workshop and /srv/work.d/x and /srv/work', '/srv/work')).toBe('/srv/workshop and /srv/work.d/x and .');
  });

  test('in HTML and XML the stand-ins are escaped: a raw <tmp> would open an element', () => {
    const root = PACKAGE_ROOT.replace(/\/+$/, '');
    expect(hideLocalPaths(`<pre>--cacert '${tmpdir()}/ca.pem' ${root}/x</pre>`, '/srv/work', true)).toBe("<pre>--cacert '&lt;tmp&gt;/ca.pem' &lt;asi-conformance&gt;/x</pre>");
  });

  test('the root folder as working folder replaces nothing', () => {
    expect(hideLocalPaths('/etc/hosts', '/')).toBe('/etc/hosts');
  });
});

describe('argvForReport', () => {
  test('other absolute paths keep only their file name', () => {
    expect(argvForReport(['run', '--ca-file', '/etc/ssl/private/ca.pem', '--config=/srv/work/p.yaml', '--out', '/srv/other/out', 'https://x/v1'], '/srv/work')).toEqual([
      'run',
      '--ca-file',
      '…/ca.pem',
      '--config=./p.yaml',
      '--out',
      '…/out',
      'https://x/v1',
    ]);
  });
});

describe('pathForReport', () => {
  test('a file under a known folder reads with its stand-in; any other keeps only its name', () => {
    expect(pathForReport('/srv/work/profiles/p.yaml', '/srv/work')).toBe('./profiles/p.yaml');
    expect(pathForReport('/srv/elsewhere/p.yaml', '/srv/work')).toBe('…/p.yaml');
    expect(pathForReport('relative/p.yaml', '/srv/work')).toBe('relative/p.yaml');
  });
});
