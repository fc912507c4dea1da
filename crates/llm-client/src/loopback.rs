//! Loopback enforcement without any name lookup: the endpoint's host must be an IP literal
//! or `localhost`, every address must be loopback, and those exact addresses are what the
//! connection uses.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use crate::Error;

/// How an endpoint spells its host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Host {
    /// A dotted-quad IPv4 address or a bracketed IPv6 address.
    Ip(IpAddr),
    /// A name (only `localhost` is accepted, and it is never looked up).
    Name(String),
}

/// Reads the host part of a URL authority (`127.0.0.1`, `[::1]`, `localhost`).
///
/// Only the two standard literal forms are read as addresses. A host whose last label is a
/// number (`2130706433`, `127.1`, `0x7f.0.0.1`, `0177.0.0.1`) is refused: WHATWG URL
/// parsers, `inet_aton` and Rust's strict parser disagree on what it means, and a
/// loopback check must not depend on which of them runs.
pub(crate) fn classify(host: &str) -> Result<Host, Error> {
    if let Some(inner) = host.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
        return inner.parse::<Ipv6Addr>().map(|ip| Host::Ip(IpAddr::V6(ip))).map_err(|_| {
            Error::InvalidEndpoint { reason: "the bracketed host is not an IPv6 address" }
        });
    }
    if let Ok(ip) = host.parse::<Ipv4Addr>() {
        return Ok(Host::Ip(IpAddr::V4(ip)));
    }
    let last_label = host.strip_suffix('.').unwrap_or(host).rsplit('.').next().unwrap_or("");
    let numeric = !last_label.is_empty()
        && (last_label.bytes().all(|byte| byte.is_ascii_digit())
            || last_label.starts_with("0x")
            || last_label.starts_with("0X"));
    if numeric {
        return Err(Error::AmbiguousHost { host: host.to_owned() });
    }
    if host.is_empty() {
        return Err(Error::InvalidEndpoint { reason: "the host is empty" });
    }
    Ok(Host::Name(host.to_owned()))
}

/// An address with IPv4-mapped IPv6 (`::ffff:a.b.c.d`) turned into its IPv4 form.
pub(crate) fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        // `to_ipv4` would also turn `::1` into `0.0.0.1`; only the mapped form is IPv4.
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        IpAddr::V4(v4) => IpAddr::V4(v4),
    }
}

/// Whether `ip` is loopback: 127.0.0.0/8, `::1`, or IPv4-mapped loopback. The unspecified
/// addresses `0.0.0.0` and `::` are not.
pub fn is_loopback(ip: IpAddr) -> bool {
    canonical(ip).is_loopback()
}

/// The addresses to connect to for `host`: an IP literal that is loopback, or `localhost`
/// (any case, with or without a final dot) as 127.0.0.1 and ::1. Any other name is refused
/// without being looked up, so no query ever leaves the machine.
pub(crate) fn check(host: &str, port: u16) -> Result<Vec<SocketAddr>, Error> {
    let addresses = match classify(host)? {
        Host::Ip(ip) => vec![ip],
        Host::Name(name) => {
            if !name.strip_suffix('.').unwrap_or(&name).eq_ignore_ascii_case("localhost") {
                return Err(Error::HostName { host: host.to_owned() });
            }
            vec![IpAddr::V4(Ipv4Addr::LOCALHOST), IpAddr::V6(Ipv6Addr::LOCALHOST)]
        }
    };
    let mut checked = Vec::with_capacity(addresses.len());
    for ip in addresses {
        if !is_loopback(ip) {
            return Err(Error::NonLoopback { host: host.to_owned(), address: ip });
        }
        let address = SocketAddr::new(canonical(ip), port);
        if !checked.contains(&address) {
            checked.push(address);
        }
    }
    Ok(checked)
}

#[cfg(test)]
mod tests;
