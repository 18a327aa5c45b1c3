#!/usr/bin/env python3
"""man.py AUGUR OUTDIR - writes a man page (roff, section 1) for augur and each
of its subcommands from the command's own --help text, so the two never
disagree: OUTDIR/augur.1, OUTDIR/augur-predict.1, OUTDIR/augur-data-info.1, ...

A help text is a usage line, paragraphs, and sections ("options:",
"commands:") of two-space-indented entries whose description starts two
spaces or more after the term and may go on in more deeply indented lines.
"""
import os
import re
import subprocess
import sys


def listed(augur, cmd):
    """The subcommands a command's --help lists under "commands:" ("help" aside)."""
    text = subprocess.run([augur] + cmd + ["--help"], capture_output=True, text=True,
                          check=True).stdout
    names, inside = [], False
    for line in text.splitlines():
        if line == "commands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside and line.startswith("  ") and line.split()[0] != "help":
            names.append(line.split()[0])
    return names


def commands(augur):
    """Every command and subcommand, as augur's own help lists them: "advise", "data info", ..."""
    out = []
    for top in listed(augur, []):
        out.append(top)
        out += [top + " " + sub for sub in listed(augur, [top])]
    return out


def esc(text):
    """Roff text: backslashes doubled, hyphens of options literal, no control line."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def parse(help_text):
    """(usage lines, description paragraphs, [(section, [[term, desc]])], trailing paragraphs)"""
    lines = help_text.rstrip("\n").split("\n")
    usage, i = [], 0
    while i < len(lines) and lines[i].strip():
        usage.append(re.sub(r"^usage: ", "", lines[i]).strip())
        i += 1
    paras, sections, tail, para, cur = [], [], [], [], None

    def flush():
        if para:
            (tail if sections else paras).append(" ".join(para))
            para.clear()
    rest = lines[i:]
    for k, line in enumerate(rest):
        # a section: an unindented line ending in ':' that entries follow
        header = re.match(r"^(\S.*):$", line) and k + 1 < len(rest) and \
            re.match(r"^  \S", rest[k + 1])
        header = header and re.match(r"^(\S.*):$", line)
        entry = re.match(r"^  (\S.*?)(?:\s{2,}(\S.*))?$", line)
        if header:
            flush()
            cur = (header.group(1), [])
            sections.append(cur)
        elif cur is not None and entry:
            cur[1].append([entry.group(1), entry.group(2) or ""])
        elif cur is not None and cur[1] and re.match(r"^\s{3,}\S", line):
            cur[1][-1][1] = (cur[1][-1][1] + " " + line.strip()).strip()
        elif not line.strip():
            flush()
        else:
            cur = None
            para.append(line.strip())
    flush()
    return usage, paras, sections, tail


def page(name, help_text, version):
    usage, paras, sections, tail = parse(help_text)
    title = name.upper()
    first = paras[0] if paras else ""
    summary = re.split(r"(?<=[.:])\s", first, maxsplit=1)[0].rstrip(".:")
    out = ['.TH %s 1 "" "augur %s" "augur manual"' % (title, version),
           ".SH NAME", "%s \\- %s" % (esc(name), esc(summary)), ".SH SYNOPSIS", ".nf"]
    out += [esc(u) for u in usage]
    out += [".fi", ".SH DESCRIPTION"]
    for p in paras:
        out += [esc(p), ".PP"]
    if out[-1] == ".PP":
        out.pop()
    for sect, entries in sections:
        out.append(".SH " + esc(sect.upper()))
        for term, desc in entries:
            out += [".TP", "\\fB%s\\fR" % esc(term), esc(desc)]
    if tail:
        out.append(".SH NOTES")
        for p in tail:
            out += [esc(p), ".PP"]
        if out[-1] == ".PP":
            out.pop()
    doc = name.split("-")[1] if "-" in name else "augur"
    out += [".SH SEE ALSO", esc("augur(1); docs/cli/%s.md in the source" % doc)]
    return "\n".join(out) + "\n"


def main():
    augur, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    version = subprocess.run([augur, "--version"], capture_output=True, text=True,
                             check=True).stdout.split()[-1]
    for cmd in [""] + commands(augur):
        args = [augur] + cmd.split() + ["--help"]
        help_text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        name = "-".join(["augur"] + cmd.split())
        with open(os.path.join(outdir, name + ".1"), "w") as f:
            f.write(page(name, help_text, version))


if __name__ == "__main__":
    main()
