//! The toybox tools hosts pipe touch records and output through: `echo`, `sleep`, `cat` and
//! `dd` (including writes into `/dev/input/eventN`), and `head -c` / `tail -c`, which cut a raw
//! `screencap` down to the rows wanted before it leaves the phone.

use super::{CmdResult, Ctx, Shell, Stdin};
use std::time::Duration;

impl Shell<'_> {
    pub(super) fn cmd_echo(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let (newline, words) = match args.first().map(String::as_str) {
            Some("-n") => (false, &args[1..]),
            _ => (true, args),
        };
        let mut text = words.join(" ");
        if newline {
            text.push('\n');
        }
        self.out(ctx, &text)?;
        Ok(0)
    }

    pub(super) fn cmd_sleep(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let secs: Option<f64> = args.first().and_then(|a| a.parse().ok());
        match secs.and_then(|s| Duration::try_from_secs_f64(s).ok()) {
            Some(d) => {
                self.handset.sleep(d);
                Ok(0)
            }
            None => {
                self.err(ctx, "sleep: Need 1 argument\n")?;
                Ok(1)
            }
        }
    }

    pub(super) fn cmd_cat(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let files: Vec<&String> = args
            .iter()
            .filter(|a| !a.starts_with('-') || *a == "-")
            .collect();
        if files.is_empty() || files.iter().all(|f| *f == "-") {
            // Each chunk from stdin is one write(), as cat does with a pipe.
            while let Some(chunk) = self.read_stdin(ctx, 64 * 1024) {
                if let Err(e) = self.write(ctx, 1, &chunk)? {
                    self.err(ctx, &format!("cat: xwrite: {e}\n"))?;
                    return Ok(1);
                }
            }
            return Ok(0);
        }
        let mut status = 0;
        for f in files {
            match self.handset.read_file(f) {
                Some(data) => {
                    if let Err(e) = self.write(ctx, 1, &data)? {
                        self.err(ctx, &format!("cat: xwrite: {e}\n"))?;
                        return Ok(1);
                    }
                }
                None => {
                    self.err(ctx, &format!("cat: {f}: No such file or directory\n"))?;
                    status = 1;
                }
            }
        }
        Ok(status)
    }

    /// `head -c N`: the first N bytes of stdin (the only form hosts send).
    pub(super) fn cmd_head(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let count = match args {
            [flag, n] if flag == "-c" => n.parse::<usize>().ok(),
            _ => None,
        };
        let Some(mut left) = count else {
            self.err(ctx, "head: the simulated phone takes only head -c N\n")?;
            return Ok(1);
        };
        while left > 0 {
            let Some(chunk) = self.read_stdin(ctx, left.min(64 * 1024)) else {
                break;
            };
            left -= chunk.len();
            if let Err(e) = self.write(ctx, 1, &chunk)? {
                self.err(ctx, &format!("head: xwrite: {e}\n"))?;
                return Ok(1);
            }
        }
        Ok(0)
    }

    /// `tail -c +N` (from the Nth byte on, 1-based) or `tail -c N` (the last N bytes) of stdin.
    pub(super) fn cmd_tail(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let spec = match args {
            [flag, n] if flag == "-c" => match n.strip_prefix('+') {
                Some(from) => from.parse::<usize>().ok().map(|f| (true, f)),
                None => n.parse::<usize>().ok().map(|c| (false, c)),
            },
            _ => None,
        };
        let Some((from_start, n)) = spec else {
            self.err(ctx, "tail: the simulated phone takes only tail -c [+]N\n")?;
            return Ok(1);
        };
        let mut data = Vec::new();
        while let Some(chunk) = self.read_stdin(ctx, 64 * 1024) {
            data.extend_from_slice(&chunk);
        }
        let start = if from_start {
            n.saturating_sub(1).min(data.len())
        } else {
            data.len().saturating_sub(n)
        };
        if let Err(e) = self.write(ctx, 1, &data[start..])? {
            self.err(ctx, &format!("tail: xwrite: {e}\n"))?;
            return Ok(1);
        }
        Ok(0)
    }

    pub(super) fn cmd_dd(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut ibs = 512usize;
        let mut obs = 512usize;
        let mut count: Option<u64> = None;
        let mut output: Option<String> = None;
        let mut input: Option<String> = None;
        let mut quiet = false;
        for a in args {
            let Some((key, value)) = a.split_once('=') else {
                self.err(ctx, &format!("dd: unknown argument '{a}'\n"))?;
                return Ok(1);
            };
            let size = parse_size(value);
            match (key, size) {
                ("bs", Some(n)) => (ibs, obs) = (n, n),
                ("ibs", Some(n)) => ibs = n,
                ("obs", Some(n)) => obs = n,
                ("count", Some(n)) => count = Some(n as u64),
                ("of", _) => output = Some(value.to_string()),
                ("if", _) => input = Some(value.to_string()),
                ("status", _) => quiet = value == "none",
                ("iflag" | "oflag" | "conv", _) => {}
                _ => {
                    self.err(ctx, &format!("dd: bad argument '{a}'\n"))?;
                    return Ok(1);
                }
            }
        }
        if let Some(path) = &output {
            match self.open_for_writing(path, false) {
                Ok(sink) => ctx.fds[1] = sink,
                Err(reason) => {
                    self.err(ctx, &format!("dd: {path}: {reason}\n"))?;
                    return Ok(1);
                }
            }
        }
        if let Some(path) = &input {
            match self.handset.read_file(path) {
                Some(data) => ctx.stdin = Stdin::Buffer(data, 0),
                None => {
                    self.err(ctx, &format!("dd: {path}: No such file or directory\n"))?;
                    return Ok(1);
                }
            }
        }
        // toybox dd: read ibs-sized blocks (short reads count as partial blocks, there is no
        // iflag=fullblock); with ibs == obs each block is written as read, otherwise output is
        // re-blocked into obs-sized writes.
        let (mut full_in, mut part_in, mut full_out, mut part_out, mut bytes) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        let mut carry: Vec<u8> = Vec::new();
        let reblock = ibs != obs;
        let mut failed = None;
        while count.is_none_or(|c| full_in + part_in < c) {
            let Some(block) = self.read_stdin(ctx, ibs) else {
                break;
            };
            if block.len() == ibs {
                full_in += 1;
            } else {
                part_in += 1;
            }
            let writes: Vec<Vec<u8>> = if reblock {
                carry.extend_from_slice(&block);
                let whole = carry.len() / obs * obs;
                let out: Vec<Vec<u8>> = carry[..whole].chunks(obs).map(<[u8]>::to_vec).collect();
                carry.drain(..whole);
                out
            } else {
                vec![block]
            };
            for w in writes {
                match self.write(ctx, 1, &w)? {
                    Ok(()) => {
                        bytes += w.len() as u64;
                        if w.len() == obs {
                            full_out += 1;
                        } else {
                            part_out += 1;
                        }
                    }
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            if failed.is_some() {
                break;
            }
        }
        if failed.is_none() && !carry.is_empty() {
            match self.write(ctx, 1, &carry)? {
                Ok(()) => {
                    bytes += carry.len() as u64;
                    part_out += 1;
                }
                Err(e) => failed = Some(e),
            }
        }
        if let Some(e) = &failed {
            let target = output.as_deref().unwrap_or("stdout");
            self.err(ctx, &format!("dd: {target}: {e}\n"))?;
        }
        if !quiet {
            self.err(
                ctx,
                &format!(
                    "{full_in}+{part_in} records in\n{full_out}+{part_out} records out\n{bytes} bytes ({bytes} B) copied, 0.000 s, 0 B/s\n"
                ),
            )?;
        }
        Ok(if failed.is_some() { 1 } else { 0 })
    }
}

/// dd sizes: `24`, `4k`, `1M`.
fn parse_size(s: &str) -> Option<usize> {
    let (num, mult) = match s.chars().last()? {
        'k' | 'K' => (&s[..s.len() - 1], 1024),
        'm' | 'M' => (&s[..s.len() - 1], 1 << 20),
        _ => (s, 1),
    };
    num.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .and_then(|n| n.checked_mul(mult))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dd_sizes_accept_suffixes() {
        assert_eq!(parse_size("24"), Some(24));
        assert_eq!(parse_size("4k"), Some(4096));
        assert_eq!(parse_size("0"), None);
        assert_eq!(parse_size("99999999999999999M"), None);
    }
}
