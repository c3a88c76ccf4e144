/**
 * The box's end of the proxy. Inside the box the network has only its own loopback, so a process
 * there listens on 127.0.0.1:BOX_PROXY_PORT and carries each connection to the proxy's Unix socket,
 * which is bind-mounted in (the design of Anthropic's sandbox-runtime, which runs socat for it).
 *
 * It is a short Perl program because Perl is on every Debian and Ubuntu system (perl-base is
 * Essential) and starts in a few milliseconds, where a Node process per command would cost tens.
 * It uses Perl's built-in socket calls with Linux's constants (AF_UNIX 1, AF_INET 2, SOCK_STREAM 1,
 * SOL_SOCKET 1, SO_REUSEADDR 2: the values on x86-64 and arm64, the runners' architectures)
 * instead of `use Socket`, which triples the start time (about 47 ms against 14 ms here). It binds and listens first, then forks: the child carries bytes, the parent
 * becomes the command (exec), so the command never runs before the port is open. The bridge dies
 * with the box's PID namespace when the command ends.
 */
export const BOX_PROXY_PORT = 3128;
export const BOX_PROXY_SOCKET = '/run/compact-agent/proxy.sock';

export const BRIDGE_SCRIPT = String.raw`
use strict;
my ($path, $port) = splice(@ARGV, 0, 2);
socket(my $l, 2, 1, 0) or die "box bridge: socket: $!\n";
setsockopt($l, 1, 2, pack('l', 1));
bind($l, pack('S n C4 x8', 2, $port, 127, 0, 0, 1)) or die "box bridge: bind: $!\n";
listen($l, 128) or die "box bridge: listen: $!\n";
my $pid = fork();
die "box bridge: fork: $!\n" unless defined $pid;
if ($pid) { close $l; exec { $ARGV[0] } @ARGV; die "box: exec $ARGV[0]: $!\n"; }
open STDIN, '<', '/dev/null'; open STDOUT, '>', '/dev/null'; open STDERR, '>', '/dev/null';
$SIG{CHLD} = 'IGNORE';
while (1) {
  accept(my $c, $l) or next;
  my $k = fork();
  if (defined $k && $k == 0) { close $l; pump($c); exit 0; }
  close $c;
}
sub pump {
  my ($c) = @_;
  socket(my $u, 1, 1, 0) or return;
  connect($u, pack('S a108', 1, $path)) or return;
  my %to = (fileno($c) => $u, fileno($u) => $c);
  my %from = (fileno($c) => $c, fileno($u) => $u);
  my $rin = ''; vec($rin, fileno($c), 1) = 1; vec($rin, fileno($u), 1) = 1;
  my $open = 2;
  while ($open > 0) {
    my $r = $rin;
    select($r, undef, undef, undef) > 0 or last;
    for my $fd (keys %from) {
      next unless vec($r, $fd, 1);
      my $n = sysread($from{$fd}, my $buf, 65536);
      if (!$n) { shutdown($to{$fd}, 1); vec($rin, $fd, 1) = 0; delete $from{$fd}; $open--; next; }
      my $off = 0;
      while ($off < $n) { my $w = syswrite($to{$fd}, $buf, $n - $off, $off); return unless $w; $off += $w; }
    }
  }
}
`;
