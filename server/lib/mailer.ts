import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

const FROM = 'Copytrade <no-reply@copytrade.local>';

/**
 * SMTP when SMTP_URL is set; otherwise every mail is written as an .eml file to DATA_DIR/outbox
 * (like Django's file backend) and its subject logged. Bodies are never logged: they hold codes.
 */
export function createMailer(options: { smtpUrl?: string | undefined; dataDir: string; log: (line: string) => void }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: FROM, ...mail });
        options.log(`mail sent to ${mail.to}: ${mail.subject}`);
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: FROM, ...mail });
      mkdirSync(outbox, { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
      writeFileSync(path.join(outbox, name), info.message as Buffer, { mode: 0o600 });
      options.log(`mail to ${mail.to} written to outbox/${name}: ${mail.subject}`);
    },
  };
}
