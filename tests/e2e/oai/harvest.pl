#!/usr/bin/perl
# Harvests a repository whole with HTTP::OAI (Debian's libhttp-oai-perl), an OAI-PMH client nobody
# here wrote, which follows the resumption tokens itself and hands over each record as it parses it:
# one line per record, "identifier datestamp", then " deleted" for a deleted one or, listing
# records, how many Dublin Core titles its metadata holds. Exits non-zero on any OAI or HTTP error.
use strict;
use warnings;
use HTTP::OAI;

my ($base, $verb, @args) = @ARGV;
my $harvester = HTTP::OAI::Harvester->new(baseURL => $base, resume => 1);
my $list = $harvester->$verb(metadataPrefix => 'oai_dc', @args, onRecord => sub {
  my ($item) = @_;
  my $header = $verb eq 'ListRecords' ? $item->header : $item;
  my $titles = $verb eq 'ListRecords' && $item->metadata
    ? ' titles=' . $item->metadata->dom->findnodes('.//*[namespace-uri()="http://purl.org/dc/elements/1.1/" and local-name()="title"]')->size
    : '';
  print $header->identifier, ' ', $header->datestamp, ($header->is_deleted ? ' deleted' : ''), $titles, "\n";
});
die 'harvest failed: ' . $list->code . ' ' . $list->message . "\n" if $list->is_error;
