#!/usr/bin/env python3
"""A real SMTP server for the tests (aiosmtpd, installed into the project's .venv by install-deps.sh).

Every received mail goes to a Maildir; every session that sent a mail is logged as one line of
`sessions.log` beside it ("tls=yes auth=PLAIN user=..."), so a test can tell how the client connected.

usage: test-smtp-server.py --port N --maildir DIR [--tls none|starttls|tls --cert PEM --key PEM]
                           [--user U --password P [--mechanisms PLAIN,LOGIN]]
  --tls starttls   plain connect; STARTTLS is required before MAIL
  --tls tls        TLS from the first byte (SMTPS)
  --user/password  AUTH is required (and offered only over TLS); --mechanisms limits what is offered
"""
import argparse
import os
import ssl
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

MECHANISMS = {"PLAIN", "LOGIN"}


class LoggingMailbox(Mailbox):
    def __init__(self, maildir):
        super().__init__(os.path.join(maildir, "mbox"))
        self.log = os.path.join(maildir, "sessions.log")

    async def handle_DATA(self, server, session, envelope):
        with open(self.log, "a", encoding="utf-8") as f:
            # After STARTTLS aiosmtpd sets session.ssl; on an SMTPS connection the transport itself is TLS.
            tls = "yes" if session.ssl or server.transport.get_extra_info("ssl_object") else "no"
            mechanism = getattr(session, "test_mechanism", "none")
            user = getattr(session, "test_user", "")
            f.write(f"tls={tls} auth={mechanism} user={user}\n")
        return await super().handle_DATA(server, session, envelope)


class Server(Controller):
    """aiosmtpd's controller with the SMTP options the command line asked for."""

    def __init__(self, handler, port, smtp_options, implicit_tls):
        self.smtp_options = smtp_options
        kwargs = {"ssl_context": implicit_tls} if implicit_tls else {}
        super().__init__(handler, hostname="127.0.0.1", port=port, **kwargs)

    def factory(self):
        return SMTP(self.handler, **self.smtp_options)


def authenticator(user, password):
    def check(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
        if ok:
            session.test_mechanism, session.test_user = mechanism, user
        return AuthResult(success=ok, handled=False)
    return check


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--tls", choices=["none", "starttls", "tls"], default="none")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--mechanisms", default="PLAIN,LOGIN")
    args = parser.parse_args()

    context = None
    if args.tls != "none":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
    options = {"hostname": "smtp.test"}
    if args.tls == "starttls":
        options.update(tls_context=context, require_starttls=True)
    if args.user:
        offered = {m.strip().upper() for m in args.mechanisms.split(",") if m.strip()}
        # aiosmtpd only knows of TLS begun by STARTTLS; on an SMTPS listener every connection is TLS already.
        options.update(auth_required=True, auth_require_tls=args.tls != "tls", authenticator=authenticator(args.user, args.password),
                       auth_exclude_mechanism=sorted(MECHANISMS - offered))
    server = Server(LoggingMailbox(args.maildir), args.port, options, context if args.tls == "tls" else None)
    server.start()
    print("ready", flush=True)
    try:
        threading.Event().wait()  # the controller serves on its own thread until the test ends the process
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
