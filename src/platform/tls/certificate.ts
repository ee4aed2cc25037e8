import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { reason, TlsError } from './errors.js';

export interface CertificateFacts {
  /** The DNS names of the subject alternative names, in the certificate's order. */
  names: string[];
  notBefore: Date;
  notAfter: Date;
  /** The issuer's distinguished name on one line. */
  issuer: string;
  fingerprint256: string;
  serialNumber: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM chain, the server's first; none when the text holds no certificate block. */
export function splitChain(chainPem: string): string[] {
  return chainPem.match(PEM_CERTIFICATE) ?? [];
}

/** The facts of a chain's first certificate (the server's). Throws a TlsError when there is none. */
export function inspectCertificate(chainPem: string, source = 'the certificate'): CertificateFacts {
  const first = splitChain(chainPem)[0];
  if (!first) throw notPem(source);
  return factsOf(parse(first, source));
}

function factsOf(x509: X509Certificate): CertificateFacts {
  return {
    names: (x509.subjectAltName ?? '')
      .split(', ')
      .filter((entry) => entry.startsWith('DNS:'))
      .map((entry) => entry.slice(4)),
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    issuer: x509.issuer.split('\n').join(', '),
    fingerprint256: x509.fingerprint256,
    serialNumber: x509.serialNumber,
  };
}

export interface CheckedCertificate extends CertificateFacts {
  /** The chain as PEM blocks joined by newlines, the server's certificate first. */
  chainPem: string;
  keyPem: string;
}

export interface CertificateFiles {
  certificateFile: string;
  /** May be the certificate file itself when it holds the key too. */
  keyFile: string;
  /** Every name the certificate must cover (wildcards in the certificate count). */
  names: readonly string[];
  now: Date;
}

/**
 * Reads a certificate chain and its key and checks that they can be served for `names` at `now`:
 * PEM, the chain in order, the key the certificate's own, valid now, every name covered. Each
 * failure is a TlsError naming the file and what to do.
 */
export async function checkCertificateFiles(files: CertificateFiles): Promise<CheckedCertificate> {
  const { certificateFile, keyFile, names, now } = files;
  const chainText = await readText(certificateFile, 'certificate');
  const keyText = keyFile === certificateFile ? chainText : await readText(keyFile, 'key');

  const blocks = splitChain(chainText);
  if (!blocks.length) throw notPem(certificateFile);
  const chain = blocks.map((block) => parse(block, certificateFile));
  chain.forEach((certificate, i) => {
    const issuer = chain[i + 1];
    if (issuer && !certificate.checkIssued(issuer))
      throw new TlsError(
        `the certificates in ${certificateFile} are not in order: the server's certificate comes first, then each one's issuer`,
      );
  });

  const key = parseKey(keyText, keyFile);
  const leaf = chain[0] as X509Certificate;
  if (!leaf.checkPrivateKey(key))
    throw new TlsError(
      `the key in ${keyFile} is not the key of the certificate in ${certificateFile}: give the key the certificate was issued for`,
    );

  const facts = factsOf(leaf);
  if (now >= facts.notAfter)
    throw new TlsError(
      `the certificate in ${certificateFile} expired on ${day(facts.notAfter)}: renew it or remove tls.certificate_file to use ACME`,
    );
  if (now < facts.notBefore)
    throw new TlsError(
      `the certificate in ${certificateFile} is not valid before ${day(facts.notBefore)}: check this machine's clock or wait until then`,
    );
  const uncovered = names.filter((name) => !leaf.checkHost(name));
  if (uncovered.length)
    throw new TlsError(
      `the certificate in ${certificateFile} does not cover ${uncovered.join(', ')} (it covers ${facts.names.join(', ') || 'no DNS name'}): use a certificate for every name the appliance serves`,
    );
  return { ...facts, chainPem: blocks.join('\n') + '\n', keyPem: keyPemOf(keyText, keyFile) };
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new TlsError(`cannot read the ${what} file ${file}: ${reason(error)}`);
  }
}

function parse(pem: string, source: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (error) {
    throw new TlsError(
      `${source} holds a certificate block that cannot be read (${reason(error)}): give a PEM certificate`,
    );
  }
}

const notPem = (source: string) =>
  new TlsError(
    `${source} is not a PEM certificate: it must hold "-----BEGIN CERTIFICATE-----" blocks, the server's certificate first, then its intermediates`,
  );

const PEM_KEY = /-----BEGIN ((?:RSA |EC |ENCRYPTED )?PRIVATE KEY)-----[\s\S]+?-----END \1-----/;

function keyPemOf(text: string, file: string): string {
  const match = PEM_KEY.exec(text);
  if (!match)
    throw new TlsError(`${file} holds no PEM private key: it must hold a "-----BEGIN PRIVATE KEY-----" block`);
  return match[0] + '\n';
}

function parseKey(text: string, file: string): KeyObject {
  const pem = keyPemOf(text, file);
  if (pem.includes('ENCRYPTED'))
    throw new TlsError(`the key in ${file} is encrypted: give it without a passphrase (the file is kept mode 0600)`);
  try {
    return createPrivateKey(pem);
  } catch (error) {
    throw new TlsError(`the key in ${file} cannot be read: ${reason(error)}`);
  }
}

/** A date as operators read it in a message: 2026-03-01 12:00:00 UTC. */
function day(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
