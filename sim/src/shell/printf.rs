//! toybox `printf`: how a host without a raw-bytes channel writes exact binary touch records
//! (`printf '\\ooo...' | dd of=/dev/input/eventN`), so its escapes and conversions follow toybox.

use super::android::atoi;
use super::{CmdResult, Ctx, Shell};

impl Shell<'_> {
    pub(super) fn cmd_printf(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let Some(format) = args.first() else {
            self.err(ctx, "printf: Needs 1 argument\n")?;
            return Ok(1);
        };
        let (bytes, errors) = printf_bytes(format, &args[1..]);
        // One write, like toybox's buffered stdout at exit: a pipe gets it whole.
        if let Err(e) = self.write(ctx, 1, &bytes)? {
            self.err(ctx, &format!("printf: write: {e}\n"))?;
            return Ok(1);
        }
        for e in &errors {
            self.err(ctx, &format!("{e}\n"))?;
        }
        Ok(i32::from(!errors.is_empty()))
    }
}

/// What toybox `printf FORMAT [ARG...]` writes, as raw bytes (octal escapes may make any byte),
/// and whether it stopped early on a bad number (exit status 1, after the rest of the output).
/// The format is reused while arguments remain, as POSIX asks.
fn printf_bytes(format: &str, args: &[String]) -> (Vec<u8>, Vec<String>) {
    let mut printer = Printer {
        args,
        next: 0,
        out: Vec::new(),
        errors: Vec::new(),
    };
    loop {
        let before = printer.next;
        let stopped = printer.pass(format.as_bytes()).is_err();
        if stopped || printer.next == before || printer.next >= args.len() {
            return (printer.out, printer.errors);
        }
    }
}

/// One `printf` run: its arguments and the next one to use, the output and errors so far.
struct Printer<'a> {
    args: &'a [String],
    next: usize,
    out: Vec<u8>,
    errors: Vec<String>,
}

/// `\c`, a bad conversion or a format that ends inside one: no more output.
struct Stop;

impl Printer<'_> {
    /// One pass over the format: literal bytes, escapes and conversions.
    fn pass(&mut self, fmt: &[u8]) -> Result<(), Stop> {
        let mut i = 0;
        while i < fmt.len() {
            match fmt[i] {
                b'\\' => {
                    i += 1;
                    match escape(fmt, &mut i, false) {
                        Escape::Byte(b) => self.out.push(b),
                        Escape::Stop => return Err(Stop),
                    }
                }
                b'%' if fmt.get(i + 1) == Some(&b'%') => {
                    self.out.push(b'%');
                    i += 2;
                }
                b'%' => {
                    let start = i;
                    let Some(spec) = Spec::parse(fmt, &mut i) else {
                        self.errors.push(format!(
                            "printf: bad %: '{}'",
                            String::from_utf8_lossy(&fmt[start..])
                        ));
                        return Err(Stop);
                    };
                    self.convert(&spec)?;
                }
                b => {
                    self.out.push(b);
                    i += 1;
                }
            }
        }
        Ok(())
    }

    /// One conversion of the next argument (an empty one when none is left), padded with
    /// spaces to its width.
    fn convert(&mut self, spec: &Spec) -> Result<(), Stop> {
        let arg = self.args.get(self.next).map(String::as_str);
        if arg.is_some() {
            self.next += 1;
        }
        let arg = arg.unwrap_or("");
        let body: Vec<u8> = match spec.conv {
            b's' => {
                let b = arg.as_bytes();
                b[..spec.precision.unwrap_or(b.len()).min(b.len())].to_vec()
            }
            b'b' => {
                let (bytes, stopped) = unescaped(arg);
                if stopped {
                    // `\c` in a `%b` argument: what came before it, unpadded, and no more.
                    self.out.extend(bytes);
                    return Err(Stop);
                }
                bytes
            }
            b'c' => arg.as_bytes().first().map(|&c| vec![c]).unwrap_or_default(),
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => spec.number(arg, &mut self.errors),
            other => {
                self.errors.push(format!("printf: bad %{}", other as char));
                return Err(Stop);
            }
        };
        let pad = spec.width.saturating_sub(body.len());
        let left = spec.flags.contains(&b'-');
        if !left {
            self.out.extend(std::iter::repeat_n(b' ', pad));
        }
        self.out.extend(&body);
        if left {
            self.out.extend(std::iter::repeat_n(b' ', pad));
        }
        Ok(())
    }
}

/// A `%b` argument with its escapes made bytes, and whether a `\c` ended it.
fn unescaped(arg: &str) -> (Vec<u8>, bool) {
    let b = arg.as_bytes();
    let mut j = 0;
    let mut v = Vec::new();
    while j < b.len() {
        if b[j] == b'\\' {
            j += 1;
            match escape(b, &mut j, true) {
                Escape::Byte(x) => v.push(x),
                Escape::Stop => return (v, true),
            }
        } else {
            v.push(b[j]);
            j += 1;
        }
    }
    (v, false)
}

/// One `%` conversion: its flags, width, precision and letter.
struct Spec<'a> {
    flags: &'a [u8],
    width: usize,
    precision: Option<usize>,
    conv: u8,
}

impl<'a> Spec<'a> {
    /// The conversion whose `%` is at `fmt[*i]`, leaving `*i` after its letter; `None` when the
    /// format ends before the letter.
    fn parse(fmt: &'a [u8], i: &mut usize) -> Option<Spec<'a>> {
        *i += 1;
        let flags_start = *i;
        while *i < fmt.len() && b"-+ #0".contains(&fmt[*i]) {
            *i += 1;
        }
        let flags = &fmt[flags_start..*i];
        let num = |i: &mut usize| {
            let s = *i;
            while *i < fmt.len() && fmt[*i].is_ascii_digit() {
                *i += 1;
            }
            std::str::from_utf8(&fmt[s..*i]).ok()?.parse::<usize>().ok()
        };
        let width = num(i).unwrap_or(0);
        let precision = if fmt.get(*i) == Some(&b'.') {
            *i += 1;
            Some(num(i).unwrap_or(0))
        } else {
            None
        };
        let &conv = fmt.get(*i)?;
        *i += 1;
        Some(Spec {
            flags,
            width,
            precision,
            conv,
        })
    }

    /// `%d %i %u %x %X %o` of `arg`, with its sign and any zero padding (a bad number is an
    /// error, and its leading digits are used).
    fn number(&self, arg: &str, errors: &mut Vec<String>) -> Vec<u8> {
        let conv = self.conv;
        let n = match parse_printf_number(arg) {
            Some(n) => n,
            None => {
                errors.push(format!("printf: invalid number '{arg}'"));
                atoi(arg) as i64
            }
        };
        let digits = match conv {
            b'd' | b'i' => n.unsigned_abs().to_string(),
            b'u' => (n as u64).to_string(),
            b'x' => format!("{:x}", n as u64),
            b'X' => format!("{:X}", n as u64),
            _ => format!("{:o}", n as u64),
        };
        let sign = if matches!(conv, b'd' | b'i') && n < 0 {
            "-"
        } else if matches!(conv, b'd' | b'i') && self.flags.contains(&b'+') {
            "+"
        } else {
            ""
        };
        let zero = self.flags.contains(&b'0') && !self.flags.contains(&b'-');
        if zero && sign.len() + digits.len() < self.width {
            let pad = "0".repeat(self.width - sign.len() - digits.len());
            format!("{sign}{pad}{digits}").into_bytes()
        } else {
            format!("{sign}{digits}").into_bytes()
        }
    }
}

/// One backslash escape, the backslash already consumed.
enum Escape {
    Byte(u8),
    /// `\c`: no more output.
    Stop,
}

/// Toybox's escapes: `\ooo` octal (1-3 digits; in `%b` arguments a leading `\0` may precede
/// them), `\xHH` hex, the C letters, and a backslash kept as is before anything else.
fn escape(s: &[u8], i: &mut usize, in_b: bool) -> Escape {
    let Some(&c) = s.get(*i) else {
        return Escape::Byte(b'\\');
    };
    if c == b'c' {
        return Escape::Stop;
    }
    let (base, mut len) = if c == b'x' {
        *i += 1;
        (16, 2)
    } else {
        if in_b && c == b'0' {
            *i += 1;
        }
        match s.get(*i) {
            Some(b'0'..=b'7') => (8, 3),
            _ if in_b && c == b'0' => return Escape::Byte(0),
            _ => (0, 0),
        }
    };
    if base == 0 {
        let letter = match c {
            b'\\' => b'\\',
            b'a' => 7,
            b'b' => 8,
            b'e' => 27,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 11,
            b'"' => b'"',
            b'\'' => b'\'',
            _ => return Escape::Byte(b'\\'),
        };
        *i += 1;
        return Escape::Byte(letter);
    }
    let mut value: u32 = 0;
    let mut digits = 0;
    while len > 0 {
        let Some(d) = s.get(*i).and_then(|&b| (b as char).to_digit(base)) else {
            break;
        };
        value = value * base + d;
        *i += 1;
        digits += 1;
        len -= 1;
    }
    if digits == 0 {
        // `\x` with no hex digit: printed as is.
        *i -= 1;
        return Escape::Byte(b'\\');
    }
    Escape::Byte(value as u8)
}

/// A printf number argument: decimal, 0x hex, leading-0 octal, or 'c (a character's code).
fn parse_printf_number(s: &str) -> Option<i64> {
    let t = s.trim_start();
    if let Some(rest) = t.strip_prefix('\'').or_else(|| t.strip_prefix('"')) {
        return Some(rest.bytes().next().map_or(0, i64::from));
    }
    if t.is_empty() {
        return Some(0);
    }
    let (neg, body) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let n = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i64::from_str_radix(&body[1..], 8).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printf(format: &str, args: &[&str]) -> (Vec<u8>, Vec<String>) {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        printf_bytes(format, &args)
    }

    #[test]
    fn printf_escapes_make_any_byte_like_toybox() {
        assert_eq!(printf(r"\101\102", &[]).0, b"AB");
        assert_eq!(printf(r"\000\377\12", &[]).0, [0, 255, 10]);
        // Three octal digits at most; a fourth is plain text.
        assert_eq!(printf(r"\1011", &[]).0, b"A1");
        assert_eq!(printf(r"a\nb\\c\td", &[]).0, b"a\nb\\c\td");
        assert_eq!(printf(r"\x41\xg", &[]).0, b"A\\xg");
        assert_eq!(
            printf(r"keep \q and stop\c here", &[]).0,
            b"keep \\q and stop"
        );
        assert_eq!(printf(r"100%%", &[]).0, b"100%");
    }

    #[test]
    fn printf_conversions_take_arguments_and_reuse_the_format() {
        assert_eq!(printf("%s=%d\n", &["a", "1", "b", "-2"]).0, b"a=1\nb=-2\n");
        assert_eq!(
            printf("[%5s|%-3s|%03d|%x|%o]", &["ab", "c", "7", "255", "8"]).0,
            b"[   ab|c  |007|ff|10]"
        );
        assert_eq!(printf("%s-%d.", &[]).0, b"-0.");
        assert_eq!(printf(r"%b|%c", &[r"x\0101\n", "hello"]).0, b"xA\n|h");
        let (out, errors) = printf("%d;", &["12", "nope"]);
        assert_eq!(out, b"12;0;");
        assert_eq!(errors, ["printf: invalid number 'nope'"]);
    }
}
