/** How the service sends customer e-mails (decisions.md, "Dispatch to drivers and customer notifications"). */
export interface SmtpSettings {
  /** smtp:// or smtps:// URL, with credentials when the server needs them. */
  url: string;
  /** The From address of every customer message. */
  from: string;
  /** A directory with planned.txt and delivered.txt replacing the built-in templates. */
  templatesDir?: string;
}
