"""Dataset loaders: PDP-Bench, LeCaRD v1, LeCaRDv2, CAIL2018, and the bundled samples."""
