//! `sim`: serves the simulated phone on 127.0.0.1 until Ctrl-C (the phone itself is opened in
//! `open`, the one place that picks implementations).

#[cfg(feature = "sim")]
use super::open::SimSetup;
use crate::cli::SimArgs;
#[cfg(feature = "sim")]
use anyhow::Context;
use anyhow::Result;
use std::process::ExitCode;

/// `sim`: serves the simulated phone on 127.0.0.1 until Ctrl-C.
#[cfg(feature = "sim")]
pub(super) fn run(args: SimArgs) -> Result<ExitCode> {
    let setup = SimSetup::parse(
        &args.puzzle,
        &args.skin,
        args.size,
        &args.latency,
        &args.faults,
        "--",
    )?;
    let (mut server, preset) = setup.serve(args.port, args.realtime)?;

    let (stop_tx, stop_rx) = std::sync::mpsc::channel();
    ctrlc::set_handler(move || {
        let _ = stop_tx.send(());
    })
    .context("could not install the Ctrl-C handler")?;

    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "serial: {}", server.serial())?;
    writeln!(out, "adb connect {}", server.serial())?;
    out.flush()?;
    drop(out);
    errln!(
        "simulated phone running: skin {}, {}, latency {preset}{}; Ctrl-C stops it",
        args.skin,
        args.size,
        if args.realtime { " (realtime)" } else { "" }
    );

    let mut reported_gone = false;
    loop {
        match stop_rx.recv_timeout(std::time::Duration::from_millis(200)) {
            Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if server.is_gone() && !reported_gone {
                    reported_gone = true;
                    errln!("the phone dropped its connection (drop-after fault); Ctrl-C to quit");
                }
            }
        }
    }
    server.stop();
    errln!(
        "stopped: {} taps, {} command lines, virtual clock {:.3} s",
        server.taps().len(),
        server.command_log().len(),
        server.clock().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// `sim` in a build without the simulated phone: says how to get it.
#[cfg(not(feature = "sim"))]
pub(super) fn run(_args: SimArgs) -> Result<ExitCode> {
    anyhow::bail!(super::open::NO_SIM)
}
