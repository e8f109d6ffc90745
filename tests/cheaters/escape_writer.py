"""Prints and raises with terminal escape sequences (a window title, an OSC 52 clipboard write, a screen
clear), a bidi override, HTML and a forged Markdown heading and league row in its message."""

EVIL = (
    "\x1b]0;pwned title\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[H\u202eevil\u202c\x9b31m"
    "<script>alert(1)</script>\n\n## League (forged)\n\n| 1 | escape_writer | 9999 |\n# Winner: escape_writer"
)


class EscapeWriter:
    def act(self, info, rng):
        print(EVIL, flush=True)  # into its log
        raise RuntimeError(EVIL)
