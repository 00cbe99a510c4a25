/**
 * The harness's own errors (undici style): one base class, subclasses with a stable `code`
 * and the context that explains them. The CLI prints `message` as one line and exits with
 * `exitCode`; nothing here ever carries a token.
 */
export class HarnessError extends Error {
  readonly code: string;
  readonly exitCode: 2 | 3;
  constructor(code: string, message: string, exitCode: 2 | 3, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** A flag or argument the CLI does not understand (exit 2). */
export class UsageError extends HarnessError {
  constructor(message: string) {
    super('ASI_USAGE', message, 2);
  }
}

/** A profile that fails to load or validate; `key` is the JSON pointer of the bad key (exit 2). */
export class ProfileError extends HarnessError {
  readonly file: string;
  readonly key: string;
  constructor(file: string, key: string, message: string) {
    super('ASI_PROFILE', `${file}: ${key === '' ? '' : `${key}: `}${message}`, 2);
    this.file = file;
    this.key = key;
  }
}

/** An expectations file (--expect) that fails to load or validate; `key` names the entry (exit 2). */
export class ExpectationsError extends HarnessError {
  constructor(file: string, key: string, message: string) {
    super('ASI_EXPECTATIONS', `${file}: ${key === '' ? '' : `${key}: `}${message}`, 2);
  }
}

/** A report given to compare with (--baseline, diff) that cannot be read as one (exit 2). */
export class ReportFileError extends HarnessError {
  constructor(file: string, message: string) {
    super('ASI_REPORT_FILE', `${file}: ${message}`, 2);
  }
}

/**
 * The target answered, but not as an ASI v1 server at that base_url, or refused the primary
 * token: the run would be a page of failures that all say the same thing (exit 2).
 */
export class PreflightError extends HarnessError {
  constructor(message: string) {
    super('ASI_PREFLIGHT', message, 2);
  }
}

/** A token named by the profile whose environment variable is unset or empty (exit 2). */
export class MissingTokenError extends HarnessError {
  readonly role: string;
  readonly envVar: string;
  /** `needed`: what needs the token, said before it (a request replay sends again). */
  constructor(role: string, envVar: string, missing: 'unset' | 'empty' = 'unset', needed?: string) {
    super('ASI_TOKEN_UNSET', `${needed === undefined ? '' : `${needed}: `}tokens.${role}: environment variable ${envVar} is ${missing === 'empty' ? 'set but empty' : 'not set'} (export ${envVar}=<token>)`, 2);
    this.role = role;
    this.envVar = envVar;
  }
}

/** The target did not answer at all (exit 3). */
export class TargetUnreachableError extends HarnessError {
  readonly url: string;
  constructor(url: string, reason: string, options?: { cause?: unknown }) {
    super('ASI_UNREACHABLE', `target ${url} is unreachable: ${reason}`, 3, options);
    this.url = url;
  }
}

/** A fault hook command that failed (exit 3: the drill cannot be trusted). */
export class HookError extends HarnessError {
  constructor(hook: string, reason: string) {
    super('ASI_HOOK', `fault hook ${hook} failed: ${reason}`, 3);
  }
}

/**
 * A report file would carry a secret value (a token the redaction step missed). Nothing is
 * written; the message names the file and the secret's position, never the value (exit 3).
 */
export class SecretInReportError extends HarnessError {
  readonly file: string;
  constructor(file: string, secretIndex: number, form: string) {
    super('ASI_SECRET_IN_REPORT', `${file} would contain secret #${secretIndex + 1} (${form}); no report was written`, 3);
    this.file = file;
  }
}

/**
 * A file given as a certification bundle that cannot be read as one: missing, not a gzip'd ustar
 * archive or a bundle folder, an entry that is a link or escapes the bundle, past the size bounds,
 * or without a manifest (exit 2). A bundle that opens but whose contents disagree is no usage
 * error: verify reports that as a problem (exit 1).
 */
export class BundleError extends HarnessError {
  readonly source: string;
  constructor(source: string, message: string) {
    super('ASI_BUNDLE', `${source}: ${message}`, 2);
    this.source = source;
  }
}

/** A signing or public key file (--sign-key, --public-key, keygen) that cannot be used; never quotes key material (exit 2). */
export class SigningKeyError extends HarnessError {
  constructor(file: string, message: string) {
    super('ASI_SIGNING_KEY', `${file}: ${message}`, 2);
  }
}

/** A matrix file (`asi-conformance matrix FILE`) that fails to load or validate, or names a target that cannot run; `key` names the entry (exit 2). */
export class TargetsError extends HarnessError {
  constructor(file: string, key: string, message: string) {
    super('ASI_TARGETS', `${file}: ${key === '' ? '' : `${key}: `}${message}`, 2);
  }
}
